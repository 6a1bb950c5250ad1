/** The rules of an Instagram post, checked before any call (docs/platforms.md, "Instagram"). */
import { durationProblem, optionsOf, problem } from '../publish-checks.ts';
import type { PublishDraft, PublishProblem } from '../types.ts';
import {
  INSTAGRAM_OPTIONS,
  INSTAGRAM_TYPES,
  MAX_CAPTION,
  MAX_CAROUSEL,
  MAX_HASHTAGS,
  MAX_MENTIONS,
  REEL_SECONDS,
  SHORT_VIDEO_SECONDS,
} from './definition.ts';

/** Every Instagram rule the draft breaks. */
export function instagramProblems({ text, media, options: given }: PublishDraft): PublishProblem[] {
  const options = optionsOf(INSTAGRAM_OPTIONS, given);
  const type = options.type ?? 'feed';
  const problems: PublishProblem[] = [];
  if (!(INSTAGRAM_TYPES as readonly string[]).includes(type)) {
    problems.push(problem('platforms.instagram.type', `must be one of ${INSTAGRAM_TYPES.join(', ')}`));
  }
  const caption = text ?? '';
  if ([...caption].length > MAX_CAPTION) {
    problems.push(problem('text', `an Instagram caption has at most ${MAX_CAPTION} characters`));
  }
  if ((caption.match(/#[\p{L}\p{N}_]/gu) ?? []).length > MAX_HASHTAGS) {
    problems.push(problem('text', `an Instagram caption has at most ${MAX_HASHTAGS} hashtags`));
  }
  if ((caption.match(/@[\p{L}\p{N}_.]/gu) ?? []).length > MAX_MENTIONS) {
    problems.push(problem('text', `an Instagram caption mentions at most ${MAX_MENTIONS} accounts`));
  }
  const videos = media.filter((m) => m.type === 'video').length;
  if (media.length === 0) {
    problems.push(problem('media_ids', 'an Instagram post needs an image or a video'));
  } else if (type === 'reel') {
    if (media.length !== 1 || videos !== 1) problems.push(problem('media_ids', 'a reel is exactly one video'));
    else problems.push(...[durationProblem(media, REEL_SECONDS, 'a reel')].filter((p) => p !== null));
  } else if (type === 'story') {
    if (media.length !== 1) problems.push(problem('media_ids', 'a story is exactly one image or video'));
    else problems.push(...[durationProblem(media, SHORT_VIDEO_SECONDS, 'a story video')].filter((p) => p !== null));
  } else if (media.length > MAX_CAROUSEL) {
    problems.push(problem('media_ids', `an Instagram carousel has 2 to ${MAX_CAROUSEL} images and videos`));
  } else {
    const range = media.length === 1 ? REEL_SECONDS : SHORT_VIDEO_SECONDS;
    const found = durationProblem(
      media,
      range,
      media.length === 1 ? 'a video (published as a reel)' : 'a carousel video',
    );
    if (found !== null) problems.push(found);
  }
  const comment = options.first_comment;
  if (comment !== undefined) {
    if (typeof comment !== 'string' || comment.trim() === '') {
      problems.push(problem('platforms.instagram.first_comment', 'must be a non-empty text'));
    } else if ([...comment].length > MAX_CAPTION) {
      problems.push(problem('platforms.instagram.first_comment', `has at most ${MAX_CAPTION} characters`));
    } else if (type === 'story') {
      problems.push(problem('platforms.instagram.first_comment', 'stories take no comments'));
    }
  }
  return problems;
}
