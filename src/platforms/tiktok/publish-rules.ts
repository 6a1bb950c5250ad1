/** The rules of a TikTok post: those checked before any call, and the longest video the creator may post. */
import { booleanProblem, optionsOf, problem, tooLong } from '../publish-checks.ts';
import type { PublishDraft, PublishProblem, PublishRequest } from '../types.ts';
import { PRIVATE_PRIVACY, TIKTOK_OPTIONS, TIKTOK_PRIVACY_LEVELS, tiktokDefinition } from './definition.ts';

const TEXT = tiktokDefinition.publishing.text;

/** Every TikTok rule the draft breaks: one video, a title within bounds, the post settings TikTok requires. */
export function tiktokProblems({ text, media, options: given }: PublishDraft): PublishProblem[] {
  const problems: PublishProblem[] = [];
  if (media.length !== 1 || media[0]?.type !== 'video') {
    problems.push(problem('media_ids', 'a TikTok post is exactly one video (no images, carousels or text-only posts)'));
  }
  if (tooLong(TEXT, text ?? '')) {
    problems.push(problem('text', `a TikTok title has at most ${TEXT.maxLength} characters`));
  }
  const options = optionsOf(TIKTOK_OPTIONS, given);
  // TikTok's UX guidelines: the user picks the privacy level, with no default.
  if (options.privacy_level === undefined) {
    problems.push(
      problem(
        'platforms.tiktok.privacy_level',
        `is required: the privacy level the creator chose, one of ${TIKTOK_PRIVACY_LEVELS.join(', ')} (as creator_info offers them)`,
      ),
    );
  } else if (!(TIKTOK_PRIVACY_LEVELS as readonly unknown[]).includes(options.privacy_level)) {
    problems.push(problem('platforms.tiktok.privacy_level', `must be one of ${TIKTOK_PRIVACY_LEVELS.join(', ')}`));
  }
  for (const field of [
    'disable_comment',
    'disable_duet',
    'disable_stitch',
    'brand_content_toggle',
    'brand_organic_toggle',
  ] as const) {
    const found = booleanProblem(options[field], `platforms.tiktok.${field}`);
    if (found !== null) problems.push(found);
  }
  // TikTok documents no API error for it: the rule is in the Content Sharing Guidelines
  // (https://developers.tiktok.com/doc/content-sharing-guidelines, "Privacy Management"),
  // which TikTok's audit holds apps to. "Only me" is SELF_ONLY.
  if (options.brand_content_toggle === true && options.privacy_level === PRIVATE_PRIVACY) {
    problems.push(
      problem(
        'platforms.tiktok.brand_content_toggle',
        `Branded content visibility cannot be set to private. Branded content (a paid partnership) needs a privacy_level other than ${PRIVATE_PRIVACY}.`,
      ),
    );
  }
  return problems;
}

/**
 * A video longer than the creator may post. The Content Sharing Guidelines
 * (https://developers.tiktok.com/doc/content-sharing-guidelines): "API clients must check if
 * the duration of the to-be-posted video follows the max_video_post_duration_sec returned in
 * the creator_info API"; the limit differs from creator to creator, so only creator_info
 * knows it. A video of unknown length, or no limit in the answer, is left to TikTok, which
 * fails it after the pull (`duration_check_failed`).
 */
export function durationProblems(request: PublishRequest, maxSeconds: number | null): PublishProblem[] {
  if (maxSeconds === null) return [];
  const long = request.media.find(
    (m) => m.type === 'video' && typeof m.durationSeconds === 'number' && m.durationSeconds > maxSeconds,
  );
  if (long === undefined) return [];
  // Rounded up, so a video a fraction of a second too long never reads as the limit itself.
  const lasts = Math.ceil((long.durationSeconds as number) * 100) / 100;
  return [
    problem('media_ids', `the video lasts ${lasts} s; this TikTok account may post videos of at most ${maxSeconds} s`),
  ];
}
