/**
 * One post: its text and schedule, the client's approval (the decision, its comment shown as
 * text, the approval links), and each target's outcome in words a person can act on (the
 * platform's message and code kept), with Retry and Cancel where the API allows them.
 */

import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { all, answer, api } from '../api.ts';
import {
  type Account,
  type ApprovalLink,
  accountLabel,
  type NewApprovalLink,
  type Post,
  type Target,
} from '../resources.ts';
import { PATHS } from '../session.ts';
import {
  Badge,
  Confirm,
  Empty,
  ErrorNotice,
  Progress,
  Revealed,
  Time,
  useAction,
  useConfirmed,
  useLoad,
} from '../ui.tsx';
import { APPROVAL_LABELS, APPROVAL_TONES, POST_TONES, statusLabel } from './posts.tsx';

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
};

const FINISHED = new Set(['published', 'failed', 'cancelled']);

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

const LINK_TONES = { open: 'warn', used: 'good', expired: 'neutral', revoked: 'neutral' } as const;
const DECISION_LABELS = { approved: 'approved', changes_requested: 'changes requested' } as const;

/**
 * The client's approval: where it stands, the decision and its comment (written by the
 * client: shown as text), a new link (its URL shown this once), and the post's links.
 */
function ApprovalPanel({ post }: { post: Post }) {
  const approval = post.approval;
  const links = useLoad(
    () => (approval ? all('/v1/posts/{id}/approval-links', { path: { id: post.id } }) : Promise.resolve([])),
    [post],
  );
  const [created, setCreated] = useState<NewApprovalLink | null>(null);
  const create = useAction(() =>
    answer(api.POST('/v1/posts/{id}/approval-links', { params: { path: { id: post.id } } })),
  );
  const revoke = useConfirmed(
    (link: ApprovalLink) =>
      answer(
        api.DELETE('/v1/posts/{id}/approval-links/{link_id}', { params: { path: { id: post.id, link_id: link.id } } }),
      ),
    () => links.reload(),
  );
  if (!approval) return null;
  // The API makes links for a post that needs approval and does not have it yet.
  const canLink =
    post.source === 'api' &&
    approval.status !== 'approved' &&
    (post.status === 'draft' || post.status === 'awaiting_approval');
  return (
    <section aria-labelledby="approval-title" class="card">
      <h2 id="approval-title">Client approval</h2>
      <p>
        <Badge value={APPROVAL_LABELS[approval.status]} tone={APPROVAL_TONES[approval.status]} />
        {approval.decided_at ? (
          <span class="small">
            {' '}
            Decided <Time iso={approval.decided_at} />
          </span>
        ) : null}
      </p>
      {approval.status === 'pending' ? (
        <p class="muted small">Nothing is published before the client approves, even when its time comes.</p>
      ) : null}
      {approval.status === 'changes_requested' ? (
        <p class="muted small">Change the post, then send the client a new approval link.</p>
      ) : null}
      {approval.comment !== null ? (
        <figure class="client-comment">
          <figcaption class="small strong">The client's comment</figcaption>
          <blockquote class="post-text">{approval.comment}</blockquote>
        </figure>
      ) : null}
      {canLink ? (
        <div class="actions">
          <button
            type="button"
            disabled={create.busy}
            onClick={async () => {
              setCreated(null);
              const link = await create.run();
              if (link) {
                setCreated(link);
                links.reload();
              }
            }}
          >
            {create.busy ? 'Creating…' : 'Create approval link'}
          </button>
        </div>
      ) : null}
      <ErrorNotice error={create.error} />
      {created ? (
        <Revealed label="Approval link" value={created.url}>
          <p>
            Send it to the client. Single use; expires <Time iso={created.expires_at} />.
          </p>
          <p class="notice warn">This link will not be shown again: copy it now.</p>
          <button type="button" class="secondary small" onClick={() => setCreated(null)}>
            I have copied it
          </button>
        </Revealed>
      ) : null}
      <h3>Approval links</h3>
      <ErrorNotice error={links.error} />
      {links.loading && !links.data ? <Progress label="Loading the approval links…" /> : null}
      {links.data ? (
        links.data.length === 0 ? (
          <Empty>No approval link yet.</Empty>
        ) : (
          <table class="approval-links">
            <caption class="visually-hidden">The post's approval links, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Made</th>
                <th scope="col">Status</th>
                <th scope="col">Decision</th>
                <th scope="col">Comment</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {links.data.map((l) => (
                <tr key={l.id}>
                  <td>
                    <Time iso={l.created_at} />
                    <p class="small muted">
                      valid until <Time iso={l.expires_at} />
                    </p>
                  </td>
                  <td>
                    <Badge value={l.status} tone={LINK_TONES[l.status]} />
                  </td>
                  <td>
                    {l.decision ? (
                      <>
                        {DECISION_LABELS[l.decision]}
                        {l.used_at ? (
                          <p class="small">
                            <Time iso={l.used_at} />
                          </p>
                        ) : null}
                      </>
                    ) : (
                      <span class="muted">—</span>
                    )}
                  </td>
                  <td class="post-text">{l.comment ?? <span class="muted">—</span>}</td>
                  <td>
                    {l.status === 'open' ? (
                      <button type="button" class="danger small" onClick={() => revoke.ask(l)}>
                        Revoke<span class="visually-hidden"> the link made {l.created_at}</span>
                      </button>
                    ) : (
                      <span class="muted">—</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
      <Confirm {...revoke.dialog} title="Revoke this approval link?" confirmLabel="Revoke link" dismissLabel="Keep it">
        <p>The client can no longer open it. The post keeps waiting for approval; you can send a new link.</p>
      </Confirm>
    </section>
  );
}

export function PostScreen() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const post = useLoad(() => answer(api.GET('/v1/posts/{id}', { params: { path: { id } } })), [id]);
  const accounts = useLoad(
    () =>
      post.data
        ? all('/v1/accounts', { header: { 'service-profile': post.data.profile_id } })
        : Promise.resolve<Account[]>([]),
    [post.data?.profile_id],
  );
  const retry = useAction(() => answer(api.POST('/v1/posts/{id}/retry', { params: { path: { id } } })));
  const cancel = useConfirmed(
    (postId: string) => answer(api.DELETE('/v1/posts/{id}', { params: { path: { id: postId } } })),
    () => post.reload(),
  );
  const p = post.data;
  const canRetry = p?.source === 'api' && p.targets.some((t) => t.status === 'failed');
  const canCancel = p?.source === 'api' && p.targets.some((t) => !FINISHED.has(t.status));
  return (
    <main id="main">
      <p>
        <a href={PATHS.posts}>← Posts</a>
      </p>
      <h1>Post</h1>
      <ErrorNotice error={post.error} />
      {post.loading && !p ? <Progress label="Loading the post…" /> : null}
      {p ? (
        <>
          <section class="card">
            <p>
              <Badge value={statusLabel(p.status)} tone={POST_TONES[p.status]} />{' '}
              <span class="muted small">
                <code>{p.id}</code>
              </span>
            </p>
            <p>
              Scheduled <Time iso={p.scheduled_at} />
            </p>
            <p class="post-text">{p.text ?? <span class="muted">No common text.</span>}</p>
            <p class="small muted">{p.media_ids.length} media</p>
            <div class="actions">
              {canRetry ? (
                <button
                  type="button"
                  disabled={retry.busy}
                  onClick={async () => {
                    if (await retry.run()) post.reload();
                  }}
                >
                  {retry.busy ? 'Retrying…' : 'Retry failed targets'}
                </button>
              ) : null}
              {canCancel ? (
                <button type="button" class="danger" onClick={() => cancel.ask(p.id)}>
                  Cancel post
                </button>
              ) : null}
              <button type="button" class="secondary" onClick={post.reload}>
                Refresh
              </button>
              {p.targets.some((t) => t.status === 'published') ? (
                <a class="button secondary" href={PATHS.postInsights(p.id)}>
                  Figures
                </a>
              ) : null}
            </div>
            <ErrorNotice error={retry.error} />
          </section>
          <ApprovalPanel post={p} />
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
              {p.targets.map((t) => (
                <TargetRow key={t.id} target={t} account={accounts.data?.find((a) => a.id === t.account_id)} />
              ))}
            </tbody>
          </table>
          <Confirm {...cancel.dialog} title="Cancel this post?" confirmLabel="Cancel post" dismissLabel="Keep the post">
            <p>Targets not yet published are cancelled. What is already on a platform stays there.</p>
          </Confirm>
        </>
      ) : null}
    </main>
  );
}
