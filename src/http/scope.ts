/** Who is calling and what they may see, resolved once per request by the auth hook. */
export interface Scope {
  ownerId: string;
  /** The one profile the request is limited to (a profile key, or the Service-Profile header); null: all of the owner's. */
  profileId: string | null;
  keyId: string;
  keyKind: 'owner' | 'profile';
  /** Set when the request came with a dashboard session cookie instead of a key. */
  sessionId?: string;
}
