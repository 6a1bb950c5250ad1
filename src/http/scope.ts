/** Who is calling and what they may see, resolved once per request by the auth hook. */
export interface Scope {
  ownerId: string;
  /** The one profile the request is limited to (a profile key, or the Service-Profile header); null: all of the owner's. */
  profileId: string | null;
  keyId: string;
  /** The key's name, if it has one. */
  keyName: string | null;
  keyKind: 'owner' | 'profile';
  /** Set when the request came with a dashboard session cookie instead of a key. */
  session?: ScopeSession;
}

/** The dashboard session a request came with, as the auth hook found it. */
export interface ScopeSession {
  id: string;
  /** The absolute limit. */
  expiresAt: Date;
  /** When it ends if it is used no more (never after `expiresAt`). */
  idleExpiresAt: Date;
}
