/** The rules of a Threads post, checked before any call, as its definition states them (docs/platforms.md, "Threads"). */
import { durationProblem, optionsOf, problem, tooLong, videoDurationFor } from '../publish-checks.ts';
import type { PublishDraft, PublishProblem } from '../types.ts';
import { MAX_TOPIC_TAG, THREADS_OPTIONS, THREADS_REPLY_CONTROLS, threadsDefinition } from './definition.ts';

const { text: TEXT, carousel: CAROUSEL, videoDurations: DURATIONS } = threadsDefinition.publishing;

/** The refusal of a post's or a reply's text longer than Threads takes. */
export const TEXT_TOO_LONG = `at most ${TEXT.maxLength} characters, an emoji counting as its UTF-8 bytes`;

/** Every Threads rule the draft breaks. */
export function threadsProblems({ text, media, options: given }: PublishDraft): PublishProblem[] {
  const problems: PublishProblem[] = [];
  if (tooLong(TEXT, text ?? '')) problems.push(problem('text', `a Threads post has ${TEXT_TOO_LONG}`));
  if (media.length === 0 && (text ?? '').trim() === '') {
    problems.push(problem('text', 'a Threads post needs text or media'));
  }
  if (media.length > CAROUSEL.maxItems) {
    problems.push(problem('media_ids', `a Threads carousel has at most ${CAROUSEL.maxItems} images and videos`));
  }
  const rule = videoDurationFor(DURATIONS, media.length === 1 ? 'single' : 'carousel', given ?? {});
  const long = durationProblem(media, rule, 'a Threads video');
  if (long !== null) problems.push(long);
  const options = optionsOf(THREADS_OPTIONS, given);
  if (
    options.reply_control !== undefined &&
    !(THREADS_REPLY_CONTROLS as readonly unknown[]).includes(options.reply_control)
  ) {
    problems.push(problem('platforms.threads.reply_control', `must be one of ${THREADS_REPLY_CONTROLS.join(', ')}`));
  }
  const tag = options.topic_tag;
  if (tag !== undefined) {
    if (typeof tag !== 'string' || tag.trim() === '' || [...tag].length > MAX_TOPIC_TAG) {
      problems.push(problem('platforms.threads.topic_tag', `must have 1 to ${MAX_TOPIC_TAG} characters`));
    } else if (/[.&]/.test(tag)) {
      problems.push(problem('platforms.threads.topic_tag', 'may not contain a period (.) or an ampersand (&)'));
    }
  }
  return problems;
}
