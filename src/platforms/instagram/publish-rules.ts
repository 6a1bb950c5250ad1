/** The rules of an Instagram post, checked before any call, as its definition states them (docs/platforms.md, "Instagram"). */
import { durationProblem, optionsOf, problem, tooLong, videoDurationFor } from '../publish-checks.ts';
import type { PublishDraft, PublishProblem } from '../types.ts';
import { INSTAGRAM_OPTIONS, INSTAGRAM_TYPES, instagramDefinition } from './definition.ts';

const { text: TEXT, carousel: CAROUSEL, videoDurations: DURATIONS } = instagramDefinition.publishing;

/** Every Instagram rule the draft breaks. */
export function instagramProblems({ text, media, options: given }: PublishDraft): PublishProblem[] {
  const options = optionsOf(INSTAGRAM_OPTIONS, given);
  const type = options.type ?? 'feed';
  const problems: PublishProblem[] = [];
  if (!(INSTAGRAM_TYPES as readonly string[]).includes(type)) {
    problems.push(problem('platforms.instagram.type', `must be one of ${INSTAGRAM_TYPES.join(', ')}`));
  }
  const caption = text ?? '';
  if (tooLong(TEXT, caption)) {
    problems.push(problem('text', `an Instagram caption has at most ${TEXT.maxLength} characters`));
  }
  if ((caption.match(/#[\p{L}\p{N}_]/gu) ?? []).length > TEXT.maxHashtags) {
    problems.push(problem('text', `an Instagram caption has at most ${TEXT.maxHashtags} hashtags`));
  }
  if ((caption.match(/@[\p{L}\p{N}_.]/gu) ?? []).length > TEXT.maxMentions) {
    problems.push(problem('text', `an Instagram caption mentions at most ${TEXT.maxMentions} accounts`));
  }
  const videos = media.filter((m) => m.type === 'video').length;
  const duration = (what: string) =>
    durationProblem(media, videoDurationFor(DURATIONS, media.length === 1 ? 'single' : 'carousel', given ?? {}), what);
  if (media.length === 0) {
    problems.push(problem('media_ids', 'an Instagram post needs an image or a video'));
  } else if (type === 'reel') {
    if (media.length !== 1 || videos !== 1) problems.push(problem('media_ids', 'a reel is exactly one video'));
    else problems.push(...[duration('a reel')].filter((p) => p !== null));
  } else if (type === 'story') {
    if (media.length !== 1) problems.push(problem('media_ids', 'a story is exactly one image or video'));
    else problems.push(...[duration('a story video')].filter((p) => p !== null));
  } else if (media.length > CAROUSEL.maxItems) {
    problems.push(
      problem('media_ids', `an Instagram carousel has ${CAROUSEL.minItems} to ${CAROUSEL.maxItems} images and videos`),
    );
  } else {
    const found = duration(media.length === 1 ? 'a video (published as a reel)' : 'a carousel video');
    if (found !== null) problems.push(found);
  }
  const comment = options.first_comment;
  if (comment !== undefined) {
    if (typeof comment !== 'string' || comment.trim() === '') {
      problems.push(problem('platforms.instagram.first_comment', 'must be a non-empty text'));
    } else if (tooLong(TEXT, comment)) {
      problems.push(problem('platforms.instagram.first_comment', `has at most ${TEXT.maxLength} characters`));
    } else if (type === 'story') {
      problems.push(problem('platforms.instagram.first_comment', 'stories take no comments'));
    }
  }
  return problems;
}
