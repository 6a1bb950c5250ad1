/**
 * Each target of a post (the post on one account): its status and what it waits for, where it
 * is on the platform, and for a failed one the platform's message and codes with what to do next.
 */
import { statusLabel } from '../../post-status.tsx';
import { type Account, accountLabel, type Post, type Target } from '../../resources.ts';
import { Badge, Time } from '../../ui.tsx';

const TARGET_TONES = {
  draft: 'neutral',
  awaiting_approval: 'warn',
  scheduled: 'neutral',
  publishing: 'warn',
  published: 'good',
  failed: 'bad',
  cancelled: 'neutral',
} as const;

/** What a person can do about each kind of failure. */
const NEXT_STEP: Record<string, string> = {
  permission_missing: 'Reconnect the account and grant the permission named, then retry.',
  token_expired: 'Send the client a reconnect link (profile menu, Accounts, Reconnect link), then retry.',
  access_revoked: 'The account removed the app: reconnect it, then retry.',
  account_not_connected: 'Reconnect the account, then retry.',
  rate_limited: 'The platform limits how often the account may post: retry later.',
  transient: 'The platform failed for a while: retry.',
  outcome_unknown: 'The platform may have the post already: check the account before retrying.',
  invalid_request: 'The platform refused the post as it is: change it, then post again.',
  validation_failed: 'The post breaks a rule of this account: change it, then post again.',
  media_unavailable: 'The platform could not fetch the media: check the media, then retry.',
  container_failed: 'The platform could not process the media: check the media, then retry.',
  container_expired: 'The platform let the upload expire: retry.',
  processing_timeout:
    'The platform took longer to process the media than it may be waited for: retry, or check the account first where it says it may still publish it.',
};

function TargetRow({ target, account }: { target: Target; account: Account | undefined }) {
  return (
    <tr>
      <td>{account ? accountLabel(account) : <code>{target.account_id}</code>}</td>
      <td>
        <Badge value={statusLabel(target.status)} tone={TARGET_TONES[target.status]} />
        {target.waiting_reason ? <p class="small muted">{target.waiting_reason}</p> : null}
        <p class="small muted">
          {target.attempts} {target.attempts === 1 ? 'try' : 'tries'}
        </p>
      </td>
      <td>
        {target.permalink ? (
          <a href={target.permalink} rel="noopener noreferrer" target="_blank">
            View on the platform
          </a>
        ) : target.published_at ? (
          <span class="muted small">published, no public link</span>
        ) : (
          <span class="muted">—</span>
        )}
        {target.published_at ? (
          <p class="small">
            <Time iso={target.published_at} />
          </p>
        ) : null}
      </td>
      <td>
        {target.error ? (
          <div class="small">
            <p>{target.error.message}</p>
            <p class="muted">
              <code>{target.error.code}</code>
              {target.error.platform_code ? (
                <>
                  {' · platform code '}
                  <code>{target.error.platform_code}</code>
                </>
              ) : null}
            </p>
            {NEXT_STEP[target.error.code] ? <p>{NEXT_STEP[target.error.code]}</p> : null}
          </div>
        ) : (
          <span class="muted">—</span>
        )}
        {target.first_comment ? (
          <p class="small">
            First comment: {target.first_comment.status}
            {target.first_comment.error ? ` (${target.first_comment.error})` : ''}
          </p>
        ) : null}
      </td>
    </tr>
  );
}

export function Targets({ post, accounts }: { post: Post; accounts: readonly Account[] }) {
  return (
    <table>
      <caption>Targets: the post on each account</caption>
      <thead>
        <tr>
          <th scope="col">Account</th>
          <th scope="col">Status</th>
          <th scope="col">On the platform</th>
          <th scope="col">Error</th>
        </tr>
      </thead>
      <tbody>
        {post.targets.map((t) => (
          <TargetRow key={t.id} target={t} account={accounts.find((a) => a.id === t.account_id)} />
        ))}
      </tbody>
    </table>
  );
}
