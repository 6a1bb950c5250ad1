/**
 * Publishing ahead: where a platform publishes an upload by itself at a time it is given
 * (YouTube's `status.publishAt`, its definition's `publishAhead`), a post its options allow
 * starts the platform's lead before its time, and its upload carries the post's time. The
 * platform then publishes it at that time, and the service confirms it by reading it then.
 */
import { type Platform, platformInfo } from '../../../platforms/index.ts';
import { platformOptions } from '../options.ts';
import type { Post } from '../tables.ts';

type Timed = Pick<Post, 'scheduledAt' | 'platformOptions'>;

function ruleOf(post: Timed, platform: Platform) {
  const rule = platformInfo(platform).publishing.publishAhead;
  return rule?.asked(platformOptions(post.platformOptions, platform)) === true ? rule : null;
}

/** When a target's publication starts: the platform's lead before its post's time where it publishes ahead, else that time. */
export function startOf(post: Timed, platform: Platform): Date {
  const rule = ruleOf(post, platform);
  return rule === null ? post.scheduledAt : new Date(post.scheduledAt.getTime() - rule.leadSeconds * 1000);
}

/**
 * What an upload made at `at` does about the post's time: carries it (`publishAt`) while it is
 * at least the platform's minimum ahead; waits for it (`waitUntil`) when it is nearer than that,
 * then is published at once; neither (null) once it has come, or where nothing is published ahead.
 */
export function aheadPlan(post: Timed, platform: Platform, at: Date): { publishAt: Date } | { waitUntil: Date } | null {
  const rule = ruleOf(post, platform);
  const left = post.scheduledAt.getTime() - at.getTime();
  if (rule === null || left <= 0) return null;
  return left >= rule.minimumSeconds * 1000 ? { publishAt: post.scheduledAt } : { waitUntil: post.scheduledAt };
}

/** Whether a started target is uploaded ahead and its post's time is still to come: cancelling it withdraws the upload. */
export function waitsForItsTime(post: Timed, platform: Platform, at: Date): boolean {
  return ruleOf(post, platform) !== null && post.scheduledAt.getTime() > at.getTime();
}
