/** The signed-in session, as every screen reads it. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Profile, Session } from './resources.ts';

export interface SessionState {
  session: Session;
  /** An owner key's session, or an admin's for the whole owner: every profile, and the owner's screens. */
  isOwner: boolean;
  /** Lists and reads profiles: an owner key's session, or any member's (the API shows it its own). */
  readsProfiles: boolean;
  /**
   * A member with roles on several profiles, or with a higher role on some than for the whole
   * owner: the profile it works on now ('' for every profile, where its role for the whole owner
   * lets it), and how to change it.
   */
  acting: { profiles: readonly Profile[]; everyProfile: boolean; current: string; choose: (id: string) => void } | null;
  signOut: () => Promise<void>;
}

/** The least role a screen needs (src/http/route-roles.ts says the API's). */
export type LeastRole = 'client' | 'viewer' | 'editor' | 'admin' | 'owner admin';
type RoleName = NonNullable<Session['member']>['roles'][number]['role'];
const RANK: Record<RoleName, number> = { client: 0, viewer: 1, editor: 2, admin: 3 };

/**
 * Whether to offer a screen: a key's session by its kind (a profile key has no owner screens), a
 * member's by its role where it works now. The API refuses what a role does not allow anyway.
 */
export function mayOpen(state: SessionState, least: LeastRole, ownerOnly: boolean): boolean {
  const { member } = state.session;
  if (!member) return state.isOwner || !ownerOnly;
  if (least === 'owner admin') return member.roles.some((r) => r.profile_id === null && r.role === 'admin');
  const role = roleHere(state);
  return role !== null && RANK[role] >= RANK[least];
}

/** Whether the member works on one profile at a time, and may work on every one at once (with its role for the whole owner). */
export function actingChoice(session: Session): { everyProfile: boolean } | null {
  const roles = session.member?.roles ?? [];
  const ownerRole = roles.find((r) => r.profile_id === null)?.role;
  const profileRoles = roles.filter((r) => r.profile_id !== null);
  if (ownerRole === undefined) return profileRoles.length > 1 ? { everyProfile: false } : null;
  // A higher role on a profile counts where a request names it: the picker names it.
  return profileRoles.some((r) => RANK[r.role] > RANK[ownerRole]) ? { everyProfile: true } : null;
}

/** A member's role where it works now (the higher of its role for the whole owner and on the profile); null for a key. */
export function roleHere(state: SessionState): RoleName | null {
  const { member } = state.session;
  if (!member) return null;
  const here = state.acting?.current ?? state.session.profile_id;
  const roles = member.roles.filter((r) => r.profile_id === null || r.profile_id === here).map((r) => r.role);
  return roles.reduce<RoleName | null>((best, r) => (best === null || RANK[r] > RANK[best] ? r : best), null);
}

export const SessionContext = createContext<SessionState | null>(null);

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside a signed-in page');
  return state;
}

/** Where each screen lives. */
export const PATHS = {
  profiles: '/dashboard/profiles',
  profile: (id: string) => `/dashboard/profiles/${encodeURIComponent(id)}`,
  report: (id: string) => `/dashboard/profiles/${encodeURIComponent(id)}/report`,
  connectSettings: '/dashboard/connect-settings',
  webhooks: '/dashboard/webhooks',
  webhook: (id: string) => `/dashboard/webhooks/${encodeURIComponent(id)}`,
  posts: '/dashboard/posts',
  newPost: '/dashboard/posts/new',
  post: (id: string) => `/dashboard/posts/${encodeURIComponent(id)}`,
  comments: '/dashboard/comments',
  insights: '/dashboard/insights',
  accountInsights: (id: string) => `/dashboard/insights/${encodeURIComponent(id)}`,
  postInsights: (id: string) => `/dashboard/insights/posts/${encodeURIComponent(id)}`,
  auditLog: '/dashboard/audit-log',
  members: '/dashboard/members',
} as const;

/** A page address's query string from the set values of `params` (filters kept in the address). */
export function query(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(name, value);
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
