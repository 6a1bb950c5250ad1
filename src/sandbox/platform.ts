/**
 * What a platform's part of the sandbox declares (a SandboxPlatform, which registry.ts lists),
 * and the Store every part works with. The shared parts (index.ts, control.ts, webhooks.ts,
 * store/) name no platform: what they do a platform's way, they ask its part.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/connection.ts';
import type { CallLog } from './calls.ts';
import type { SandboxAccount, SandboxComment, SandboxPost, SandboxWebhook } from './schema.ts';
import type { Setting } from './store/setting-kinds.ts';

/** What every part of the sandbox works with: its database, its clock, its call log and its platforms. */
export interface Store {
  db: Db;
  now: () => Date;
  /** The calls the imitated APIs received (in this process's memory, not in the database). */
  calls: CallLog;
  /** The registry's platforms by name. */
  platforms: ReadonlyMap<string, SandboxPlatform>;
}

export interface SandboxPlatform<Name extends string = string> {
  /** As the service and the control API name it. */
  readonly name: Name;
  /** Its imitated hosts, each served under its own name (`/graph.instagram.com/...`): what each registers. */
  hosts(store: Store): Record<string, (host: FastifyInstance) => void>;
  /** What a user the sandbox makes (on a permission page, or `POST /_control/users`) starts with. */
  readonly newUser: NewUser;
  /**
   * The ids of a comment someone else makes (`POST /_control/comments`), in the platform's format
   * (a Bluesky reply is a record of its author's: `at://<did>/app.bsky.feed.post/<key>`); absent: digits.
   */
  commentIds?(): { id: string; authorId: string };
  /** A post's link, in the platform's format. */
  permalink(account: SandboxAccount, postId: string): string;
  /** The metric names it has per level, in its own words (`PUT /_control/insights` takes no other); null: no insights. */
  readonly insightMetrics: { readonly account: readonly string[]; readonly post: readonly string[] } | null;
  /** The comment notices it sends to the callback `PUT /_control/webhooks/<name>` subscribes; null: none. */
  readonly webhooks: CommentNotices | null;
  /**
   * What else it does when someone adds a comment or edits one through the control API
   * (Google Business Profile: publishes the review's notification to its Pub/Sub topic); absent: nothing.
   */
  commentChanged?(store: Store, comment: SandboxComment, how: 'added' | 'edited'): Promise<void>;
  /** The switches it reads (`PUT /_control/settings/<name>`), shared ones included. */
  readonly settings: readonly Setting[];
  /** Whether a call of its answers only the app's testers (`POST /_control/testers`). */
  readonly testers: boolean;
}

export interface NewUser {
  /** The kinds of the posts it is made with, oldest first: a day apart, the newest a day old. */
  readonly postTypes: readonly string[];
  /** Whether other people commented on each of them. */
  readonly comments: boolean;
  /** A new user's id, in the platform's own format (LinkedIn's member ids); absent: 17 digits. */
  newId?(): string;
  /** What else the platform makes for it (Facebook: the pages the user manages). */
  afterCreate?(store: Store, user: SandboxAccount): Promise<void>;
}

export interface CommentNotices {
  /** Whether the platform sends this account's notices (it sends an account none before it asked, or granted). */
  sentFor(store: Store, account: SandboxAccount): Promise<boolean>;
  /** The notice of a comment just added, in the platform's shape. */
  notice(store: Store, about: CommentAdded): Promise<unknown>;
}

export interface CommentAdded {
  subscription: SandboxWebhook;
  /** The account whose post it is. */
  account: SandboxAccount;
  post: SandboxPost;
  comment: SandboxComment;
}

/** The part of a platform the registry lists. */
export function platformPart(store: Store, name: string): SandboxPlatform {
  const part = store.platforms.get(name);
  if (part === undefined) throw new Error(`the sandbox has no platform ${name}`);
  return part;
}
