/**
 * The profile menu: one profile's API keys (owner sessions), connect links, and accounts
 * with their status and actions. A profile key's session sees its own profile only, and
 * none of the owner-only parts.
 */

import { useEffect, useRef, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { all, answer, api, SwitchboardError } from '../api.ts';
import { profileChoices, useProfiles } from '../choices.tsx';
import { PLATFORMS, type Platform, platformLabel } from '../platforms.ts';
import {
  type Account,
  type ApiKey,
  accountLabel,
  type ConnectLink,
  type CreatedApiKey,
  type Post,
  type Profile,
  type ReconnectLink,
  type RedirectOrigin,
} from '../resources.ts';
import { PATHS, query, useSession } from '../session.ts';
import {
  Badge,
  Confirm,
  Empty,
  ErrorNotice,
  Field,
  Progress,
  problemAt,
  Revealed,
  SelectField,
  TextField,
  Time,
  useAction,
  useConfirmed,
  useLoad,
} from '../ui.tsx';

function ApiKeys({ profileId }: { profileId: string }) {
  const keys = useLoad(() => all('/v1/profiles/{id}/api-keys', { path: { id: profileId } }), [profileId]);
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const create = useAction(() =>
    answer(
      api.POST('/v1/profiles/{id}/api-keys', {
        params: { path: { id: profileId } },
        body: name.trim() ? { name: name.trim() } : {},
      }),
    ),
  );
  const revoke = useConfirmed(
    (key: ApiKey) =>
      answer(api.DELETE('/v1/profiles/{id}/api-keys/{keyId}', { params: { path: { id: profileId, keyId: key.id } } })),
    () => keys.reload(),
  );
  const submit = async (event: Event) => {
    event.preventDefault();
    const key = await create.run();
    if (key) {
      setCreated(key);
      setName('');
      keys.reload();
    }
  };
  return (
    <section aria-labelledby="keys-title" class="card">
      <h2 id="keys-title">API keys</h2>
      <p class="muted">A profile key sees and changes this profile only.</p>
      <form class="inline" onSubmit={submit}>
        <TextField
          label="Key name (optional)"
          error={problemAt(create.error, 'body.name')}
          maxLength={200}
          value={name}
          onValue={setName}
        />
        <button type="submit" disabled={create.busy}>
          {create.busy ? 'Creating…' : 'Create API key'}
        </button>
      </form>
      <ErrorNotice error={create.error} />
      {created ? (
        <Revealed label={`New key${created.name ? ` “${created.name}”` : ''}`} value={created.key}>
          <p class="notice warn">
            This key will not be shown again. Copy it now and keep it somewhere safe; only its first characters are kept
            here.
          </p>
          <button type="button" class="secondary small" onClick={() => setCreated(null)}>
            I have copied it
          </button>
        </Revealed>
      ) : null}
      <ErrorNotice error={keys.error} />
      {keys.data ? (
        keys.data.length === 0 ? (
          <Empty>No profile keys yet.</Empty>
        ) : (
          <table>
            <caption class="visually-hidden">Profile API keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Starts with</th>
                <th scope="col">Created</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((k) => (
                <tr key={k.id}>
                  <td>{k.name ?? <span class="muted">unnamed</span>}</td>
                  <td>
                    <code>{k.key_start}…</code>
                  </td>
                  <td>
                    <Time iso={k.created_at} />
                  </td>
                  <td>
                    <button type="button" class="danger small" onClick={() => revoke.ask(k)}>
                      Revoke<span class="visually-hidden"> key {k.key_start}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
      <Confirm {...revoke.dialog} title={`Revoke the key ${revoke.item?.key_start ?? ''}…?`} confirmLabel="Revoke key">
        <p>Programs using it are refused at once, and dashboard sessions signed in with it end.</p>
      </Confirm>
    </section>
  );
}

interface LinkForm {
  redirectUrl: string;
  state: string;
  platforms: Platform[];
}

/**
 * Where a link sends the client afterwards: a URL under one of the owner's registered origins,
 * which the hint lists and the field offers (a profile key cannot read them: it is told so).
 */
function RedirectUrlField({
  origins,
  isOwner,
  error,
  value,
  onValue,
  example,
}: {
  origins: readonly RedirectOrigin[];
  isOwner: boolean;
  error: ReturnType<typeof problemAt>;
  value: string;
  onValue: (value: string) => void;
  /** The path of the placeholder URL: what the client comes back from. */
  example: string;
}) {
  return (
    <Field
      label="Redirect URL"
      hint={
        origins.length > 0 ? (
          <>
            Where the client is sent afterwards. It must be under a registered origin:{' '}
            {origins.map((o, i) => (
              <span key={o.id}>
                {i > 0 ? ', ' : ''}
                <code>{o.origin}</code>
              </span>
            ))}
            .
          </>
        ) : isOwner ? (
          <>
            No redirect origin is registered yet: add one in <a href={PATHS.connectSettings}>Connect settings</a>.
          </>
        ) : (
          'Where the client is sent afterwards; it must be under an origin the owner registered.'
        )
      }
      error={error}
    >
      {({ id, describedBy, invalid }) => (
        <>
          <input
            id={id}
            type="url"
            required
            list={`${id}-origins`}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            placeholder={origins[0] ? `${origins[0].origin}/${example}` : `https://app.example.com/${example}`}
            value={value}
            onInput={(e) => onValue(e.currentTarget.value)}
          />
          <datalist id={`${id}-origins`}>
            {origins.map((o) => (
              <option key={o.id} value={`${o.origin}/`} />
            ))}
          </datalist>
        </>
      )}
    </Field>
  );
}

function ConnectLinks({
  profileId,
  form,
  setForm,
  formRef,
}: {
  profileId: string;
  form: LinkForm;
  setForm: (f: LinkForm) => void;
  formRef: { current: HTMLFormElement | null };
}) {
  const { isOwner } = useSession();
  const origins = useLoad(() => (isOwner ? all('/v1/connect/redirect-origins', {}) : Promise.resolve([])), [isOwner]);
  const [link, setLink] = useState<ConnectLink | null>(null);
  const create = useAction(() =>
    answer(
      api.POST('/v1/profiles/{id}/connect-links', {
        params: { path: { id: profileId } },
        body: {
          redirect_url: form.redirectUrl.trim(),
          ...(form.state !== '' ? { state: form.state } : {}),
          ...(form.platforms.length > 0 ? { platforms: form.platforms } : {}),
        },
      }),
    ),
  );
  const submit = async (event: Event) => {
    event.preventDefault();
    setLink(null);
    const created = await create.run();
    if (created) setLink(created);
  };
  const togglePlatform = (platform: Platform, on: boolean) =>
    setForm({
      ...form,
      platforms: on
        ? PLATFORMS.filter((p) => p === platform || form.platforms.includes(p))
        : form.platforms.filter((p) => p !== platform),
    });
  const originList = origins.data ?? [];
  return (
    <section aria-labelledby="links-title" class="card">
      <h2 id="links-title">Connect link</h2>
      <p class="muted">
        A single-use link to the hosted page where your client connects their accounts to this profile, without an
        account of their own. It lasts 30 minutes.
      </p>
      <form ref={formRef} onSubmit={submit}>
        <RedirectUrlField
          origins={originList}
          isOwner={isOwner}
          error={problemAt(create.error, 'body.redirect_url')}
          value={form.redirectUrl}
          onValue={(value) => setForm({ ...form, redirectUrl: value })}
          example="connected"
        />
        <TextField
          label="State (optional)"
          hint="Sent back to the redirect URL unchanged."
          error={problemAt(create.error, 'body.state')}
          value={form.state}
          onValue={(value) => setForm({ ...form, state: value })}
        />
        <fieldset>
          <legend>Platforms offered (none ticked: all)</legend>
          {PLATFORMS.map((p) => (
            <label key={p} class="check">
              <input
                type="checkbox"
                checked={form.platforms.includes(p)}
                onChange={(e) => togglePlatform(p, e.currentTarget.checked)}
              />
              {platformLabel(p)}
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={create.busy}>
          {create.busy ? 'Creating…' : 'Create connect link'}
        </button>
      </form>
      <ErrorNotice error={create.error} />
      {link ? (
        <Revealed label="Connect link" value={link.url}>
          <p>
            Single use; expires <Time iso={link.expires_at} />.
          </p>
        </Revealed>
      ) : null}
    </section>
  );
}

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

/**
 * A reconnect link for one account (`POST /v1/accounts/{id}/reconnect-links`): a connect link
 * for that account alone, shown once with its expiry.
 */
function ReconnectLinkForm({
  account,
  origins,
  initialRedirectUrl,
  formRef,
  onClose,
}: {
  account: Account;
  origins: readonly RedirectOrigin[];
  initialRedirectUrl: string;
  formRef: { current: HTMLFormElement | null };
  onClose: () => void;
}) {
  const { isOwner } = useSession();
  const [redirectUrl, setRedirectUrl] = useState(initialRedirectUrl);
  const [state, setState] = useState('');
  const [link, setLink] = useState<ReconnectLink | null>(null);
  const create = useAction(() =>
    answer(
      api.POST('/v1/accounts/{id}/reconnect-links', {
        params: { path: { id: account.id } },
        body: { redirect_url: redirectUrl.trim(), ...(state !== '' ? { state } : {}) },
      }),
    ),
  );
  const submit = async (event: Event) => {
    event.preventDefault();
    setLink(null);
    const created = await create.run();
    if (created) setLink(created);
  };
  return (
    <section aria-labelledby="reconnect-title" class="card">
      <h2 id="reconnect-title">Reconnect link for {accountLabel(account)}</h2>
      <p class="muted">
        A single-use link, valid 30 minutes, to a page where the account's owner signs in to{' '}
        {platformLabel(account.platform)} again. It reconnects this account and no other; the account stays in this
        profile.
      </p>
      <form ref={formRef} onSubmit={submit}>
        <RedirectUrlField
          origins={origins}
          isOwner={isOwner}
          error={problemAt(create.error, 'body.redirect_url')}
          value={redirectUrl}
          onValue={setRedirectUrl}
          example="reconnected"
        />
        <TextField
          label="State (optional)"
          hint="Sent back to the redirect URL unchanged."
          error={problemAt(create.error, 'body.state')}
          value={state}
          onValue={setState}
        />
        <div class="actions">
          <button type="submit" disabled={create.busy}>
            {create.busy ? 'Creating…' : 'Create reconnect link'}
          </button>
          <button type="button" class="secondary" onClick={onClose}>
            Close
          </button>
        </div>
      </form>
      <ErrorNotice error={create.error} />
      {link ? (
        <Revealed label={`Reconnect link for ${accountLabel(account)}`} value={link.url}>
          <p>
            Single use; expires <Time iso={link.expires_at} />.
          </p>
        </Revealed>
      ) : null}
    </section>
  );
}

/** Whether the profile's posts need the client's approval unless a post says otherwise (owner sessions). */
function PostApproval({ profile }: { profile: Profile }) {
  // Shown as asked at once, then as the API answered (or back, when it refused).
  const [on, setOn] = useState(profile.post_approval_required);
  const save = useAction((value: boolean) =>
    answer(
      api.PATCH('/v1/profiles/{id}', {
        params: { path: { id: profile.id } },
        body: { post_approval_required: value },
      }),
    ),
  );
  return (
    <section aria-labelledby="approval-title" class="card">
      <h2 id="approval-title">Post approval</h2>
      <label class="check">
        <input
          type="checkbox"
          checked={on}
          disabled={save.busy}
          onChange={async (e) => {
            const value = e.currentTarget.checked;
            setOn(value);
            const saved = await save.run(value);
            setOn(saved ? saved.post_approval_required : !value);
          }}
        />
        New posts need the client's approval
      </label>
      <p class="muted small">
        {on
          ? 'On: a new post waits until the client approves it through an approval link (a post may say otherwise).'
          : 'Off: new posts are published without approval, unless a post asks for it.'}
      </p>
      {save.busy ? <Progress label="Saving…" /> : null}
      <ErrorNotice error={save.error} />
    </section>
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

function MoveAccount({
  account,
  profiles,
  onMoved,
}: {
  account: Account;
  profiles: readonly Profile[];
  onMoved: () => void;
}) {
  const [target, setTarget] = useState('');
  const [waiting, setWaiting] = useState<Post[] | null>(null);
  const move = useAction(async () => {
    setWaiting(null);
    try {
      return await answer(
        api.POST('/v1/accounts/{id}/move', { params: { path: { id: account.id } }, body: { profile_id: target } }),
      );
    } catch (error) {
      if (error instanceof SwitchboardError && error.code === 'account_has_scheduled_posts') {
        const lists = await Promise.all(
          (['scheduled', 'publishing'] as const).map((status) =>
            all('/v1/posts', { query: { account_id: account.id, status } }),
          ),
        );
        setWaiting(lists.flat());
      }
      throw error;
    }
  });
  const others = profiles.filter((p) => p.id !== account.profile_id);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await move.run()) onMoved();
  };
  return (
    <form class="inline" onSubmit={submit}>
      <SelectField
        label={`Move ${accountLabel(account)} to`}
        required
        none="Choose a profile"
        value={target}
        choices={profileChoices(others)}
        onValue={setTarget}
      />
      <button type="submit" class="secondary small" disabled={move.busy || target === ''}>
        Move
      </button>
      <ErrorNotice error={move.error} />
      {waiting ? (
        <div class="notice warn">
          <p>
            These posts wait to be published on this account. Each post stays in this profile, so the account moves only
            once they are published, cancelled or deleted:
          </p>
          <ul>
            {waiting.map((p) => (
              <li key={p.id}>
                <a href={PATHS.post(p.id)}>{p.text ? p.text.slice(0, 80) : p.id}</a> — {p.status}, due{' '}
                <Time iso={p.scheduled_at} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </form>
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

function Accounts({ profileId, onReconnect }: { profileId: string; onReconnect: (a: Account) => void }) {
  const accounts = useLoad(() => all('/v1/accounts', { header: { 'service-profile': profileId } }), [profileId]);
  // Read once for every account's move.
  const profiles = useProfiles();
  return (
    <section aria-labelledby="accounts-title" class="card">
      <h2 id="accounts-title">Accounts</h2>
      <ErrorNotice error={accounts.error} />
      {accounts.loading && !accounts.data ? <Progress label="Loading accounts…" /> : null}
      {accounts.data ? (
        accounts.data.length === 0 ? (
          <Empty>No accounts yet: send your client a connect link.</Empty>
        ) : (
          <table>
            <caption class="visually-hidden">Accounts of this profile</caption>
            <thead>
              <tr>
                <th scope="col">Platform</th>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Permissions</th>
                <th scope="col">Comment notices</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {accounts.data.map((a) => (
                <AccountRow
                  key={`${a.id}:${a.updated_at}`}
                  account={a}
                  profiles={profiles.data ?? []}
                  onChanged={accounts.reload}
                  onReconnect={onReconnect}
                />
              ))}
            </tbody>
          </table>
        )
      ) : null}
    </section>
  );
}

export function ProfileScreen() {
  const { params } = useRoute();
  const { isOwner } = useSession();
  const profileId = params.id ?? '';
  const profile = useLoad(
    () =>
      isOwner ? answer(api.GET('/v1/profiles/{id}', { params: { path: { id: profileId } } })) : Promise.resolve(null),
    [profileId, isOwner],
  );
  const [linkForm, setLinkForm] = useState<LinkForm>({ redirectUrl: '', state: '', platforms: [] });
  const linkFormRef = useRef<HTMLFormElement | null>(null);
  const origins = useLoad(() => (isOwner ? all('/v1/connect/redirect-origins', {}) : Promise.resolve([])), [isOwner]);
  const [reconnecting, setReconnecting] = useState<Account | null>(null);
  const reconnectFormRef = useRef<HTMLFormElement | null>(null);
  useEffect(() => {
    if (reconnecting === null) return;
    reconnectFormRef.current?.scrollIntoView({ block: 'start' });
    reconnectFormRef.current?.querySelector('input')?.focus();
  }, [reconnecting]);
  const title = isOwner ? (profile.data?.name ?? 'Profile') : 'Your profile';
  return (
    <main id="main">
      {isOwner ? (
        <p>
          <a href={PATHS.profiles}>← Profiles</a>
        </p>
      ) : null}
      <h1>{title}</h1>
      <p class="muted small">
        <code>{profileId}</code>
        {profile.data?.external_id ? (
          <>
            {' · external id '}
            <code>{profile.data.external_id}</code>
          </>
        ) : null}
      </p>
      <ErrorNotice error={profile.error} />
      {isOwner && profile.data ? <PostApproval key={profile.data.id} profile={profile.data} /> : null}
      {isOwner ? <ApiKeys profileId={profileId} /> : null}
      <ConnectLinks profileId={profileId} form={linkForm} setForm={setLinkForm} formRef={linkFormRef} />
      <Accounts profileId={profileId} onReconnect={setReconnecting} />
      {reconnecting ? (
        <ReconnectLinkForm
          key={reconnecting.id}
          account={reconnecting}
          origins={origins.data ?? []}
          initialRedirectUrl={linkForm.redirectUrl}
          formRef={reconnectFormRef}
          onClose={() => setReconnecting(null)}
        />
      ) : null}
    </main>
  );
}
