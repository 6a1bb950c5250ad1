/** The comment notices of a platform that sends none to ordinary apps (LinkedIn, YouTube): its comments are read by polling. */
import { unsupported } from './errors.ts';
import type { CommentsCapability, Platform } from './types.ts';

export function pollingOnlyNotices(
  platform: Platform,
  why: string,
): Pick<CommentsCapability, 'parseCommentNotices' | 'subscribeNotices' | 'commentTimes'> {
  const refusal = () => unsupported(platform, `comment notices (${why}: comments are read)`);
  return {
    parseCommentNotices() {
      throw refusal();
    },
    async subscribeNotices() {
      // Refused, so the account says `notices: "polling_only"` (its comments come by polling
      // alone) rather than a subscription the platform never makes.
      throw refusal();
    },
    async commentTimes() {
      // Only a notice lacks a comment's time, and the platform sends none.
      return new Map();
    },
  };
}
