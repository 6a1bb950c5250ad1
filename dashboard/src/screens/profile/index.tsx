/**
 * The profile menu: one profile's API keys (owner sessions), connect links, and accounts
 * with their status and actions. A profile key's session sees its own profile only, and
 * none of the owner-only parts.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { all, answer, api } from '../../api.ts';
import type { Account } from '../../resources.ts';
import { mayOpen, PATHS, useSession } from '../../session.ts';
import { ErrorNotice, useLoad } from '../../ui.tsx';
import { Accounts } from './accounts.tsx';
import { ApiKeys } from './api-keys.tsx';
import { ConnectLinks, type LinkForm } from './connect-link.tsx';
import { PostApproval } from './post-approval.tsx';
import { ReconnectLinkForm } from './reconnect-link.tsx';

export function ProfileScreen() {
  const { params } = useRoute();
  const state = useSession();
  const { isOwner, readsProfiles } = state;
  const profileId = params.id ?? '';
  const profile = useLoad(
    () =>
      readsProfiles
        ? answer(api.GET('/v1/profiles/{id}', { params: { path: { id: profileId } } }))
        : Promise.resolve(null),
    [profileId, readsProfiles],
  );
  const [linkForm, setLinkForm] = useState<LinkForm>({ redirectUrl: '', state: '', platforms: [] });
  // Read once, for the connect link form and the reconnect link form.
  const origins = useLoad(() => (isOwner ? all('/v1/connect/redirect-origins', {}) : Promise.resolve([])), [isOwner]);
  // The platforms the owner brought its own app to, offered by its links though the service has no app there.
  const ownApps = useLoad(
    () =>
      isOwner
        ? answer(api.GET('/v1/platform-apps')).then((page) => page.data.map((a) => a.platform))
        : Promise.resolve([]),
    [isOwner],
  );
  const [reconnecting, setReconnecting] = useState<Account | null>(null);
  const reconnectFormRef = useRef<HTMLFormElement | null>(null);
  useEffect(() => {
    if (reconnecting === null) return;
    reconnectFormRef.current?.scrollIntoView({ block: 'start' });
    reconnectFormRef.current?.querySelector('input')?.focus();
  }, [reconnecting]);
  const title = readsProfiles ? (profile.data?.name ?? 'Profile') : 'Your profile';
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
      <p>
        <a href={PATHS.report(profileId)}>Report: last month at a glance</a>
      </p>
      {mayOpen(state, 'admin', true) && profile.data ? (
        <PostApproval key={profile.data.id} profile={profile.data} />
      ) : null}
      {mayOpen(state, 'admin', true) ? <ApiKeys profileId={profileId} /> : null}
      {mayOpen(state, 'editor', false) ? (
        <ConnectLinks
          profileId={profileId}
          form={linkForm}
          setForm={setLinkForm}
          origins={origins.data ?? []}
          ownApps={ownApps.data ?? []}
        />
      ) : null}
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
