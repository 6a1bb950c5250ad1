/** The signed-in session, as every screen reads it. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Session } from './resources.ts';

export interface SessionState {
  session: Session;
  /** An owner key's session: every profile, and the owner-only screens. */
  isOwner: boolean;
  signOut: () => Promise<void>;
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
