/**
 * The dashboard's shell: the session (found again after a reload through GET /v1/session),
 * the sign-in page while there is none, and the screens with their navigation. A profile
 * key's session is not offered the owner-only screens; the API refuses them anyway. No screen
 * shows before the catalogue of platforms is read (catalogue.ts): screens name platforms by it.
 */

import { useEffect, useMemo, useState } from 'preact/hooks';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { answer, api, SwitchboardError, setCsrfToken, whenSessionEnds } from './api.ts';
import { loadCatalogue, loadCatalogueForSession } from './catalogue.ts';
import type { Session } from './resources.ts';
import { AuditLogScreen } from './screens/audit-log.tsx';
import { CommentsScreen } from './screens/comments.tsx';
import { ConnectSettingsScreen } from './screens/connect-settings.tsx';
import { AccountInsightsScreen } from './screens/insights/account.tsx';
import { InsightsScreen } from './screens/insights/index.tsx';
import { PostInsightsScreen } from './screens/insights/post.tsx';
import { NewPostScreen } from './screens/new-post/index.tsx';
import { PostScreen } from './screens/post/index.tsx';
import { PostsScreen } from './screens/posts.tsx';
import { ProfileScreen } from './screens/profile/index.tsx';
import { ProfilesScreen } from './screens/profiles.tsx';
import { SignIn } from './screens/sign-in.tsx';
import { WebhookScreen } from './screens/webhook/index.tsx';
import { WebhooksScreen } from './screens/webhooks.tsx';
import { PATHS, SessionContext, type SessionState } from './session.ts';
import { ErrorNotice, Progress } from './ui.tsx';

type State =
  | { kind: 'loading' }
  | { kind: 'signed-out'; reason: string | null }
  | { kind: 'signed-in'; session: Session }
  | { kind: 'failed'; error: unknown };

interface NavItem {
  href: string;
  label: string;
  ownerOnly?: boolean;
}

const NAV: NavItem[] = [
  { href: PATHS.profiles, label: 'Profiles' },
  { href: PATHS.connectSettings, label: 'Connect settings', ownerOnly: true },
  { href: PATHS.posts, label: 'Posts' },
  { href: PATHS.comments, label: 'Comments' },
  { href: PATHS.insights, label: 'Insights' },
  { href: PATHS.webhooks, label: 'Webhooks' },
  { href: PATHS.auditLog, label: 'Audit log', ownerOnly: true },
];

function Nav({ isOwner }: { isOwner: boolean }) {
  const { path } = useLocation();
  return (
    <nav aria-label="Screens">
      <ul>
        {NAV.filter((item) => isOwner || !item.ownerOnly).map((item) => (
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
        <Nav isOwner={state.isOwner} />
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
      <Router>
        <Route path="/dashboard" component={Home} />
        <Route path="/dashboard/" component={Home} />
        <Route path="/dashboard/profiles" component={ProfilesScreen} />
        <Route path="/dashboard/profiles/:id" component={ProfileScreen} />
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
        <Route default component={NotFound} />
      </Router>
    </SessionContext.Provider>
  );
}

export function App() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  /** Signed in: the screens show once the catalogue is read (at once when it was). */
  const enter = (session: Session) => {
    setCsrfToken(session.csrf_token);
    setState({ kind: 'loading' });
    loadCatalogueForSession().then(
      () => setState({ kind: 'signed-in', session }),
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
  const sessionState = useMemo<SessionState | null>(
    () =>
      session && {
        session,
        // An admin for the whole owner sees what an owner key does; the API holds every member to its roles.
        isOwner:
          session.key_kind === 'owner' ||
          (session.member?.roles.some((r) => r.role === 'admin' && r.profile_id === null) ?? false),
        signOut: async () => {
          try {
            await answer(api.DELETE('/v1/session'));
          } finally {
            setCsrfToken(null);
            setState({ kind: 'signed-out', reason: 'You are signed out.' });
          }
        },
      },
    [session],
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
