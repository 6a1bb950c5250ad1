/** A member's role: for the whole owner, or on one profile (docs/members.md says what each may do). */
export type MemberRole = 'admin' | 'editor' | 'viewer' | 'client';

/** Who made a request: a program with an API key, or a person signed in as a member. */
export type Caller =
  | {
      type: 'api_key';
      id: string;
      /** The key's name, if it has one. */
      name: string | null;
      kind: 'owner' | 'profile';
    }
  | {
      type: 'member';
      id: string;
      email: string;
      name: string | null;
      /**
       * The member's role for this request: the higher of its role for the whole owner and its
       * role on the request's profile; null when it acts in none of its several profiles yet.
       */
      role: MemberRole | null;
      /** Its role for the whole owner, if it has one. */
      ownerRole: MemberRole | null;
      /** Its roles on single profiles, by profile id. */
      profileRoles: ReadonlyMap<string, MemberRole>;
    };

/** Who is calling and what they may see, resolved once per request by the auth hook. */
export interface Scope {
  ownerId: string;
  /** The one profile the request is limited to (a profile key, the Service-Profile header, a member's only profile); null: all of the owner's. */
  profileId: string | null;
  /**
   * The profiles a request with no profile of its own may list: null for all of the owner's,
   * else those a member has a role on.
   */
  visibleProfileIds: readonly string[] | null;
  caller: Caller;
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
