/** The rules of a Threads post, checked before any call (docs/platforms.md, "Threads"). */
import { durationProblem, optionsOf, problem } from '../publish-checks.ts';
import type { PublishDraft, PublishProblem } from '../types.ts';
import { MAX_CAROUSEL, MAX_TOPIC_TAG, THREADS_OPTIONS, THREADS_REPLY_CONTROLS, VIDEO_SECONDS } from './definition.ts';
import { THREADS_MAX_TEXT, threadsTextLength } from './text.ts';

/** Every Threads rule the draft breaks. */
export function threadsProblems({ text, media, options: given }: PublishDraft): PublishProblem[] {
  const problems: PublishProblem[] = [];
  if (text !== undefined && threadsTextLength(text) > THREADS_MAX_TEXT) {
    problems.push(
      problem(
        'text',
        `a Threads post has at most ${THREADS_MAX_TEXT} characters, an emoji counting as its UTF-8 bytes`,
      ),
    );
  }
  if (media.length === 0 && (text ?? '').trim() === '') {
    problems.push(problem('text', 'a Threads post needs text or media'));
  }
  if (media.length > MAX_CAROUSEL) {
    problems.push(problem('media_ids', `a Threads carousel has at most ${MAX_CAROUSEL} images and videos`));
  }
  const long = durationProblem(media, VIDEO_SECONDS, 'a Threads video');
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
