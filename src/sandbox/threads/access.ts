/** What every Threads route checks of its caller: the platform's tokens and errors, and the scopes it names. */
import type { Caller, CallOptions } from '../caller.ts';
import { graph, graphErrors } from '../meta/errors.ts';

export const platform = 'threads';
// Threads documents no subcode for a token whose app was removed.
export const call: CallOptions = { platform, errors: graphErrors(platform, { revokedSubcode: null }) };
/** A publish also takes the faults set for `publish`. */
export const publishCall: CallOptions = { ...call, publishing: true };

export const SCOPE = {
  basic: 'threads_basic',
  publish: 'threads_content_publish',
  readReplies: 'threads_read_replies',
  manageReplies: 'threads_manage_replies',
  insights: 'threads_manage_insights',
};

/** `me` or the caller's own id; any other user is not visible to this token. */
export function ownUserId(who: Caller, id: string): void {
  if (id !== 'me' && id !== who.account.id) throw graph.notFound(id);
}
