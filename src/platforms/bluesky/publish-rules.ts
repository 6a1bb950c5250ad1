/** The rules of a Bluesky post checked before any call: its text in graphemes, its images, its card, its thread. */
import { optionsOf, problem, tooLong } from '../publish-checks.ts';
import type { DraftMedium, PublishDraft, PublishProblem } from '../types.ts';
import {
  BLUESKY_MAX_IMAGE_BYTES,
  BLUESKY_MAX_IMAGES,
  BLUESKY_OPTIONS,
  BLUESKY_THREAD_MAX_FOLLOWING,
  blueskyDefinition,
} from './definition.ts';

const { text: TEXT } = blueskyDefinition.publishing;
const tooLongMessage = `a Bluesky post's text has at most ${TEXT.maxLength} graphemes (what a reader sees as one character)`;

function imageProblems(media: readonly DraftMedium[], field: string): PublishProblem[] {
  const problems: PublishProblem[] = [];
  if (media.some((m) => m.type !== 'image'))
    problems.push(problem(field, 'a Bluesky post takes images only (video is not offered yet)'));
  if (media.length > BLUESKY_MAX_IMAGES)
    problems.push(problem(field, `a Bluesky post takes at most ${BLUESKY_MAX_IMAGES} images`));
  if (media.some((m) => (m.sizeBytes ?? 0) > BLUESKY_MAX_IMAGE_BYTES)) {
    problems.push(
      problem(field, `each image of a Bluesky post has at most ${BLUESKY_MAX_IMAGE_BYTES} bytes (its blob limit)`),
    );
  }
  return problems;
}

export function blueskyPublishRules(draft: PublishDraft): PublishProblem[] {
  const options = optionsOf(BLUESKY_OPTIONS, draft.options);
  const problems: PublishProblem[] = [];
  const text = draft.text ?? '';
  if (text.trim() === '' && draft.media.length === 0)
    problems.push(problem('text', 'a Bluesky post needs text or images'));
  if (tooLong(TEXT, text)) problems.push(problem('text', tooLongMessage));
  problems.push(...imageProblems(draft.media, 'media_ids'));
  if (options.alt_texts !== undefined && options.alt_texts.length > draft.media.length) {
    problems.push(problem('platforms.bluesky.alt_texts', 'there is one alt text per image of the post, at most'));
  }
  if (options.link_card !== undefined) {
    if (draft.media.length > 0)
      problems.push(problem('platforms.bluesky.link_card', 'a Bluesky post with images takes no link card'));
    if (!/^https?:\/\//.test(options.link_card.uri))
      problems.push(problem('platforms.bluesky.link_card.uri', 'the link is http or https'));
  }
  const thread = options.thread ?? [];
  if (options.thread !== undefined && (thread.length === 0 || thread.length > BLUESKY_THREAD_MAX_FOLLOWING)) {
    problems.push(
      problem('platforms.bluesky.thread', `a thread holds 1 to ${BLUESKY_THREAD_MAX_FOLLOWING} posts after the first`),
    );
  }
  for (const [index, post] of thread.entries()) {
    const at = `platforms.bluesky.thread[${index}]`;
    if (post.text.trim() === '') problems.push(problem(`${at}.text`, 'each post of a thread needs text'));
    if (tooLong(TEXT, post.text)) problems.push(problem(`${at}.text`, tooLongMessage));
    const known = (post.media_ids ?? []).flatMap((id) => draft.optionMedia?.[id] ?? []);
    problems.push(...imageProblems(known, `${at}.media_ids`));
  }
  return problems;
}
