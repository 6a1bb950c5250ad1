/**
 * A profile's accounts: platform, name, status and what an expired or disconnected one puts at
 * risk, the permissions granted, how comments reach the service, and each account's actions
 * (its insights, a reconnect link, disconnect, and for owner sessions a move).
 */
import { all, answer, api } from '../../api.ts';
import { platformLabel } from '../../catalogue.ts';
import { useProfiles } from '../../choices.tsx';
import { type Account, accountLabel, type Profile } from '../../resources.ts';
import { PATHS, query, useSession } from '../../session.ts';
import { Badge, Confirm, LoadedTable, Time, useConfirmed, useLoad } from '../../ui.tsx';
import { MoveAccount } from './move-account.tsx';

const STATUS_TONES = { connected: 'good', expired: 'warn', disconnected: 'bad' } as const;

/** What an expired or disconnected account puts at risk: the posts waiting on it, and the first due. */
function PostsAtRisk({ account }: { account: Account }) {
  const risk = account.posts_at_risk;
  if (risk === null) return null;
  if (risk.count === 0) return <p class="small muted">No post waits on it.</p>;
  return (
    <p class="small at-risk">
      <a href={`${PATHS.posts}${query({ account: account.id })}`}>
        {risk.count} {risk.count === 1 ? 'post' : 'posts'} at risk
      </a>
      {risk.next_scheduled_at ? (
        <>
          , next due <Time iso={risk.next_scheduled_at} />
        </>
      ) : null}
      . They fail unless the account is reconnected first.
    </p>
  );
}

function Notices({ account }: { account: Account }) {
  if (account.notices === null) return <span class="muted">not read on this platform</span>;
  if (account.notices === 'subscribed') return <Badge value="subscribed" tone="good" />;
  return (
    <>
      <Badge value="polling only" tone="warn" />
      {account.notices_error ? <p class="muted small">{account.notices_error}</p> : null}
    </>
  );
}

function AccountRow({
  account,
  profiles,
  onChanged,
  onReconnect,
}: {
  account: Account;
  /** Where an owner session may move it (none for a profile key's). */
  profiles: readonly Profile[];
  onChanged: () => void;
  onReconnect: (a: Account) => void;
}) {
  const { isOwner } = useSession();
  const disconnect = useConfirmed(
    (a: Account) => answer(api.DELETE('/v1/accounts/{id}', { params: { path: { id: a.id } } })),
    onChanged,
  );
  return (
    <tr>
      <td>{platformLabel(account.platform)}</td>
      <td>
        {account.display_name ?? account.username ?? account.platform_user_id}
        {account.username ? <div class="muted small">@{account.username}</div> : null}
      </td>
      <td>
        <Badge value={account.status} tone={STATUS_TONES[account.status]} />
        <PostsAtRisk account={account} />
      </td>
      <td>
        {account.permissions.length === 0 ? (
          <span class="muted">none</span>
        ) : (
          <ul class="plain small">
            {account.permissions.map((p) => (
              <li key={p}>
                <code>{p}</code>
              </li>
            ))}
          </ul>
        )}
      </td>
      <td>
        <Notices account={account} />
      </td>
      <td class="actions">
        <a class="button secondary small" href={PATHS.accountInsights(account.id)}>
          Insights<span class="visually-hidden"> of {accountLabel(account)}</span>
        </a>
        {/* Any status may be reconnected: an expired or disconnected account, or one that should grant more. */}
        <button
          type="button"
          class={account.status === 'connected' ? 'secondary small' : 'small'}
          onClick={() => onReconnect(account)}
        >
          Reconnect link<span class="visually-hidden"> for {accountLabel(account)}</span>
        </button>
        {account.status === 'connected' ? (
          <button type="button" class="danger small" onClick={() => disconnect.ask(account)}>
            Disconnect<span class="visually-hidden"> {accountLabel(account)}</span>
          </button>
        ) : null}
        {isOwner ? <MoveAccount account={account} profiles={profiles} onMoved={onChanged} /> : null}
        <Confirm {...disconnect.dialog} title={`Disconnect ${accountLabel(account)}?`} confirmLabel="Disconnect">
          <p>
            Its platform tokens are deleted and nothing more is published or read for it. It stays listed, and a
            reconnect link can reconnect it.
          </p>
        </Confirm>
      </td>
    </tr>
  );
}

export function Accounts({ profileId, onReconnect }: { profileId: string; onReconnect: (a: Account) => void }) {
  const accounts = useLoad(() => all('/v1/accounts', { header: { 'service-profile': profileId } }), [profileId]);
  // Read once for every account's move.
  const profiles = useProfiles();
  return (
    <section aria-labelledby="accounts-title" class="card">
      <h2 id="accounts-title">Accounts</h2>
      <LoadedTable
        loaded={accounts}
        loadingLabel="Loading accounts…"
        empty="No accounts yet: send your client a connect link."
        caption="Accounts of this profile"
        columns={['Platform', 'Name', 'Status', 'Permissions', 'Comment notices', 'Actions']}
        rows={(items) =>
          items.map((a) => (
            <AccountRow
              key={`${a.id}:${a.updated_at}`}
              account={a}
              profiles={profiles.data ?? []}
              onChanged={accounts.reload}
              onReconnect={onReconnect}
            />
          ))
        }
      />
    </section>
  );
}
