/**
 * The dashboard's shell: the session (found again after a reload through GET /v1/session),
 * the sign-in page while there is none, and the screens with their navigation. A profile
 * key's session is not offered the owner-only screens; the API refuses them anyway. No screen
 * shows before the catalogue of platforms is read (catalogue.ts): screens name platforms by it.
 */

import { useEffect, useId, useMemo, useState } from 'preact/hooks';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { all, answer, api, SwitchboardError, setActingProfile, setCsrfToken, whenSessionEnds } from './api.ts';
import { loadCatalogue, loadCatalogueForSession } from './catalogue.ts';
import type { Profile, Session } from './resources.ts';
import { AuditLogScreen } from './screens/audit-log.tsx';
import { CommentsScreen } from './screens/comments.tsx';
import { ConnectSettingsScreen } from './screens/connect-settings.tsx';
import { AccountInsightsScreen } from './screens/insights/account.tsx';
import { InsightsScreen } from './screens/insights/index.tsx';
import { PostInsightsScreen } from './screens/insights/post.tsx';
import { MembersScreen } from './screens/members.tsx';
import { NewPostScreen } from './screens/new-post/index.tsx';
import { PostScreen } from './screens/post/index.tsx';
import { PostsScreen } from './screens/posts.tsx';
import { ProfileScreen } from './screens/profile/index.tsx';
import { ProfilesScreen } from './screens/profiles.tsx';
import { ReportScreen } from './screens/report/index.tsx';
import { SignIn } from './screens/sign-in.tsx';
import { WebhookScreen } from './screens/webhook/index.tsx';
import { WebhooksScreen } from './screens/webhooks.tsx';
import { actingChoice, type LeastRole, mayOpen, PATHS, SessionContext, type SessionState } from './session.ts';
import { ErrorNotice, Progress } from './ui.tsx';

type State =
  | { kind: 'loading' }
  | { kind: 'signed-out'; reason: string | null }
  | {
      kind: 'signed-in';
      session: Session;
      /** A member who chooses the profile it works on: its profiles, and the one it works on ('' for every one). */
      acting: { profiles: Profile[]; everyProfile: boolean; current: string } | null;
    }
  | { kind: 'failed'; error: unknown };

interface NavItem {
  href: string;
  label: string;
  /** The least role a member needs for the screen's first read. */
  least: LeastRole;
  /** Not for a profile key's session. */
  ownerOnly?: boolean;
}

const NAV: NavItem[] = [
  { href: PATHS.profiles, label: 'Profiles', least: 'client' },
  { href: PATHS.connectSettings, label: 'Connect settings', least: 'owner admin', ownerOnly: true },
  { href: PATHS.posts, label: 'Posts', least: 'client' },
  { href: PATHS.comments, label: 'Comments', least: 'viewer' },
  { href: PATHS.insights, label: 'Insights', least: 'client' },
  { href: PATHS.webhooks, label: 'Webhooks', least: 'viewer' },
  { href: PATHS.members, label: 'Members', least: 'owner admin', ownerOnly: true },
  { href: PATHS.auditLog, label: 'Audit log', least: 'admin', ownerOnly: true },
];

function Nav({ state }: { state: SessionState }) {
  const { path } = useLocation();
  return (
    <nav aria-label="Screens">
      <ul>
        {NAV.filter((item) => mayOpen(state, item.least, item.ownerOnly === true)).map((item) => (
          <li key={item.href}>
            <a href={item.href} aria-current={path.startsWith(item.href) ? 'page' : undefined}>
              {item.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Home() {
  const { route } = useLocation();
  useEffect(() => route(PATHS.profiles, true), [route]);
  return null;
}

function NotFound() {
  return (
    <main id="main">
      <h1>Not found</h1>
      <p>
        This page does not exist. <a href={PATHS.profiles}>Go to the profiles.</a>
      </p>
    </main>
  );
}

/** A member choosing the profile it works on (it has roles on several, or a higher one on a profile than for the whole owner): every screen then reads that one, or every one. */
function ActingProfile({ acting }: { acting: NonNullable<SessionState['acting']> }) {
  const { route } = useLocation();
  const id = useId();
  return (
    <div class="acting small">
      <label for={id}>Profile</label>
      <select
        id={id}
        value={acting.current}
        onChange={(e) => {
          const chosen = e.currentTarget.value;
          acting.choose(chosen);
          route(chosen === '' ? PATHS.profiles : PATHS.profile(chosen));
        }}
      >
        {acting.everyProfile ? <option value="">Every profile</option> : null}
        {acting.profiles.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
    </div>
  );
}

function SignedIn({ state }: { state: SessionState }) {
  return (
    <SessionContext.Provider value={state}>
      <a class="skip" href="#main">
        Skip to the content
      </a>
      <header class="top">
        <a class="brand" href={PATHS.profiles}>
          Switchboard
        </a>
        <Nav state={state} />
        {state.acting ? <ActingProfile acting={state.acting} /> : null}
        <div class="who">
          <span class="muted small">
            {state.session.member ? (
              <>Member · {state.session.member.email}</>
            ) : (
              <>
                {state.isOwner ? 'Owner key' : 'Profile key'} · <code>{state.session.key_id}</code>
              </>
            )}
          </span>
          <button type="button" class="secondary small" onClick={() => void state.signOut()}>
            Sign out
          </button>
        </div>
      </header>
      {/* A new acting profile reads every screen again. */}
      <Router key={state.acting?.current ?? ''}>
        <Route path="/dashboard" component={Home} />
        <Route path="/dashboard/" component={Home} />
        <Route path="/dashboard/profiles" component={ProfilesScreen} />
        <Route path="/dashboard/profiles/:id" component={ProfileScreen} />
        <Route path="/dashboard/profiles/:id/report" component={ReportScreen} />
        <Route path="/dashboard/connect-settings" component={ConnectSettingsScreen} />
        <Route path="/dashboard/posts" component={PostsScreen} />
        <Route path="/dashboard/posts/new" component={NewPostScreen} />
        <Route path="/dashboard/posts/:id" component={PostScreen} />
        <Route path="/dashboard/comments" component={CommentsScreen} />
        <Route path="/dashboard/insights" component={InsightsScreen} />
        <Route path="/dashboard/insights/posts/:id" component={PostInsightsScreen} />
        <Route path="/dashboard/insights/:id" component={AccountInsightsScreen} />
        <Route path="/dashboard/webhooks" component={WebhooksScreen} />
        <Route path="/dashboard/webhooks/:id" component={WebhookScreen} />
        <Route path="/dashboard/audit-log" component={AuditLogScreen} />
        <Route path="/dashboard/members" component={MembersScreen} />
        <Route default component={NotFound} />
      </Router>
    </SessionContext.Provider>
  );
}

/** The profiles a member chooses among (actingChoice), or null when it has nothing to choose. */
async function actingProfiles(session: Session): Promise<Profile[] | null> {
  return actingChoice(session) === null ? null : await all('/v1/profiles', {});
}

export function App() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  /** Signed in: the screens show once the catalogue is read (at once when it was). */
  const enter = (session: Session) => {
    setCsrfToken(session.csrf_token);
    setActingProfile(null);
    setState({ kind: 'loading' });
    Promise.all([loadCatalogueForSession(), actingProfiles(session)]).then(
      ([, profiles]) => {
        const everyProfile = actingChoice(session)?.everyProfile ?? false;
        // Every profile where the member may see them all at once, else the first of its own.
        const current = everyProfile ? '' : (profiles?.[0]?.id ?? '');
        setActingProfile(current === '' ? null : current);
        setState({
          kind: 'signed-in',
          session,
          acting: profiles ? { profiles, everyProfile, current } : null,
        });
      },
      // A 401 has shown the sign-in page already (whenSessionEnds).
      (error: unknown) => setState((current) => (current.kind === 'signed-out' ? current : { kind: 'failed', error })),
    );
  };

  useEffect(() => {
    whenSessionEnds(() => {
      setCsrfToken(null);
      // A screen's requests fail together: the first says why, the others leave the page as it is.
      setState((current) =>
        current.kind === 'signed-in'
          ? {
              kind: 'signed-out',
              reason: 'Your session has ended (signed out, idle for too long, or past its limit). Sign in again.',
            }
          : current.kind === 'signed-out'
            ? current
            : { kind: 'signed-out', reason: null },
      );
    });
    // Both at once, so a reloaded page waits for one round trip: without a session, the
    // catalogue's 401 says the same as the session's.
    Promise.all([answer(api.GET('/v1/session')), loadCatalogue()]).then(
      ([session]) => enter(session),
      (error: unknown) => {
        if (error instanceof SwitchboardError && (error.status === 401 || error.status === 404)) {
          setState({ kind: 'signed-out', reason: null });
        } else setState({ kind: 'failed', error });
      },
    );
  }, []);

  const session = state.kind === 'signed-in' ? state.session : null;
  const acting = state.kind === 'signed-in' ? state.acting : null;
  const sessionState = useMemo<SessionState | null>(
    () =>
      session && {
        session,
        acting: acting && {
          ...acting,
          choose: (id: string) => {
            setActingProfile(id === '' ? null : id);
            setState((current) =>
              current.kind === 'signed-in' && current.acting
                ? { ...current, acting: { ...current.acting, current: id } }
                : current,
            );
          },
        },
        // An admin for the whole owner sees what an owner key does; the API holds every member to its roles.
        isOwner:
          session.key_kind === 'owner' ||
          (session.member?.roles.some((r) => r.role === 'admin' && r.profile_id === null) ?? false),
        readsProfiles: session.key_kind === 'owner' || session.member !== null,
        signOut: async () => {
          try {
            await answer(api.DELETE('/v1/session'));
          } finally {
            setCsrfToken(null);
            setActingProfile(null);
            setState({ kind: 'signed-out', reason: 'You are signed out.' });
          }
        },
      },
    [session, acting],
  );

  if (state.kind === 'loading') return <Progress label="Loading the dashboard…" />;
  if (state.kind === 'failed') {
    return (
      <main id="main">
        <h1>The dashboard could not start</h1>
        <ErrorNotice error={state.error} />
      </main>
    );
  }
  if (!sessionState) {
    return <SignIn reason={state.kind === 'signed-out' ? state.reason : null} onSignedIn={enter} />;
  }
  return (
    <LocationProvider scope="/dashboard">
      <SignedIn state={sessionState} />
    </LocationProvider>
  );
}
