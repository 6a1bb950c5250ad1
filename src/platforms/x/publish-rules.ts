/** The rules of an X post checked before any call: its text as X weighs it, and what it can hold so far. */
import { durationProblem, optionsOf, problem, tooLong, videoDurationFor } from '../publish-checks.ts';
import type { DraftMedium, PublishDraft, PublishProblem } from '../types.ts';
import {
  X_MAX_GIF_BYTES,
  X_MAX_IMAGE_BYTES,
  X_MAX_VIDEO_BYTES,
  X_OPTIONS,
  X_THREAD_MAX_FOLLOWING,
  xDefinition,
} from './definition.ts';

const { text: TEXT, carousel, videoDurations: DURATIONS } = xDefinition.publishing;
const MB = 1024 * 1024;
const MAX_IMAGES = carousel.maxItems;
const POST_ID = /^\d{1,19}$/;
const tooLongMessage = `an X post's text weighs at most ${TEXT.maxLength} (X's weighted count: links 23, CJK and emoji 2)`;
/** A poll (POST /2/tweets `poll`): 2 to 4 choices of 1 to 25 characters, open 5 to 10,080 minutes. */
const POLL = { minOptions: 2, maxOptions: 4, maxOptionLength: 25, minMinutes: 5, maxMinutes: 10_080 };

function pollProblems(poll: unknown, mediaCount: number): PublishProblem[] {
  const problems: PublishProblem[] = [];
  const { options, duration_minutes: minutes } = (poll ?? {}) as Record<string, unknown>;
  const choices = Array.isArray(options) ? options : [];
  if (choices.length < POLL.minOptions || choices.length > POLL.maxOptions) {
    problems.push(problem('platforms.x.poll.options', `a poll has ${POLL.minOptions} to ${POLL.maxOptions} choices`));
  }
  if (choices.some((c) => typeof c !== 'string' || c.trim() === '' || [...c].length > POLL.maxOptionLength)) {
    problems.push(problem('platforms.x.poll.options', `each choice has 1 to ${POLL.maxOptionLength} characters`));
  }
  if (
    typeof minutes !== 'number' ||
    !Number.isInteger(minutes) ||
    minutes < POLL.minMinutes ||
    minutes > POLL.maxMinutes
  ) {
    problems.push(
      problem('platforms.x.poll.duration_minutes', `a poll is open ${POLL.minMinutes} to ${POLL.maxMinutes} minutes`),
    );
  }
  if (mediaCount > 0) problems.push(problem('media_ids', 'an X post with a poll takes no media'));
  return problems;
}

/**
 * The posts after the first: each a text X takes as a post's own, and its own media (library
 * ids, known from `known`) held to the rules of a post's media. A medium the library does not
 * have is refused before these rules, so it is left out of them.
 */
function threadProblems(thread: unknown, known: PublishDraft['optionMedia']): PublishProblem[] {
  const posts = Array.isArray(thread) ? thread : [];
  if (posts.length === 0 || posts.length > X_THREAD_MAX_FOLLOWING) {
    return [problem('platforms.x.thread', `a thread holds 1 to ${X_THREAD_MAX_FOLLOWING} posts after the first`)];
  }
  const problems: PublishProblem[] = [];
  for (const [index, post] of posts.entries()) {
    const { text, media_ids: ids } = (post ?? {}) as Record<string, unknown>;
    const at = `platforms.x.thread[${index}]`;
    if (typeof text !== 'string' || text.trim() === '')
      problems.push(problem(`${at}.text`, 'each post of a thread needs text'));
    else if (tooLong(TEXT, text)) problems.push(problem(`${at}.text`, tooLongMessage));
    const media = (Array.isArray(ids) ? ids : []).flatMap((id) => {
      const medium = typeof id === 'string' ? known?.[id] : undefined;
      return medium === undefined ? [] : [medium];
    });
    problems.push(...mediaProblems(media, `${at}.media_ids`));
  }
  return problems;
}

/** Image types X takes as still images ("Image: 5 MB"); a GIF may be animated ("GIF: 15 MB"). */
const STILL_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

/**
 * The most bytes X takes for a medium of a post of `count` media, and how to say it. A GIF among
 * other images is uploaded as an image. An image alone whose type is unknown may be an animated
 * GIF, which only its bytes tell when it is uploaded: it is held to the GIF's bound here.
 */
function sizeLimit({ type, contentType }: DraftMedium, count: number): { bytes: number; what: string } | null {
  if (type === 'video')
    return { bytes: X_MAX_VIDEO_BYTES, what: `an X video has at most ${X_MAX_VIDEO_BYTES / MB} MB` };
  if (type !== 'image') return null;
  const still = `an X image has at most ${X_MAX_IMAGE_BYTES / MB} MB`;
  if (count > 1) return { bytes: X_MAX_IMAGE_BYTES, what: still };
  if (contentType === 'image/gif') {
    return { bytes: X_MAX_GIF_BYTES, what: `an X GIF alone in its post has at most ${X_MAX_GIF_BYTES / MB} MB` };
  }
  if (typeof contentType === 'string' && STILL_TYPES.includes(contentType)) {
    return { bytes: X_MAX_IMAGE_BYTES, what: `${still} (a ${contentType.slice('image/'.length).toUpperCase()})` };
  }
  return { bytes: X_MAX_GIF_BYTES, what: `${still}, an animated GIF alone ${X_MAX_GIF_BYTES / MB} MB` };
}

/**
 * The media of one post: one video alone, or 1 to 4 images ("You may attach up to 4 photos, 1
 * animated GIF or 1 video in a Post"), each within X's size and a video within its length.
 */
function mediaProblems(media: DraftMedium[], at: string): PublishProblem[] {
  const problems: PublishProblem[] = [];
  if (media.some((m) => m.type !== 'image' && m.type !== 'video')) {
    problems.push(problem(at, 'an X post takes images and videos only'));
  } else if (media.some((m) => m.type === 'video') && media.length > 1) {
    problems.push(problem(at, `an X post has one video alone, or 1 to ${MAX_IMAGES} images`));
  } else if (media.length > MAX_IMAGES) {
    problems.push(problem(at, `an X post has at most ${MAX_IMAGES} images`));
  }
  for (const [index, m] of media.entries()) {
    const limit = sizeLimit(m, media.length);
    if (limit === null || typeof m.sizeBytes !== 'number' || m.sizeBytes <= limit.bytes) continue;
    problems.push(problem(`${at}[${index}]`, `${limit.what} (this one: ${(m.sizeBytes / MB).toFixed(1)} MB)`));
  }
  const long = durationProblem(media, videoDurationFor(DURATIONS, 'single', {}), 'an X video');
  if (long !== null) problems.push({ ...long, field: at });
  return problems;
}

export function xProblems({ text, media, options, optionMedia }: PublishDraft): PublishProblem[] {
  const problems: PublishProblem[] = mediaProblems(media, 'media_ids');
  if (media.length === 0 && (text ?? '').trim() === '')
    problems.push(problem('text', 'an X post without media needs text'));
  if (tooLong(TEXT, text ?? '')) {
    problems.push(problem('text', tooLongMessage));
  }
  const { reply_to: replyTo, poll, thread } = optionsOf(X_OPTIONS, options);
  if (thread !== undefined) problems.push(...threadProblems(thread, optionMedia));
  if (poll !== undefined) problems.push(...pollProblems(poll, media.length));
  if (replyTo !== undefined && (typeof replyTo !== 'string' || !POST_ID.test(replyTo))) {
    problems.push(problem('platforms.x.reply_to', 'reply_to is the id of an X post (digits)'));
  }
  return problems;
}
