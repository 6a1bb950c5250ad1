/** The rules of a Bluesky post checked before any call: its text in graphemes, its media, its card, its thread. */
import { countText } from '../../client/text-length.ts';
import { durationProblem, optionsOf, problem, tooLong, videoDurationFor } from '../publish-checks.ts';
import type { DraftMedium, PublishDraft, PublishProblem } from '../types.ts';
import {
  BLUESKY_MAX_IMAGE_BYTES,
  BLUESKY_MAX_IMAGES,
  BLUESKY_MAX_VIDEO_ALT_GRAPHEMES,
  BLUESKY_MAX_VIDEO_BYTES,
  BLUESKY_OPTIONS,
  BLUESKY_THREAD_MAX_FOLLOWING,
  blueskyDefinition,
} from './definition.ts';

const { text: TEXT, videoDurations: DURATIONS } = blueskyDefinition.publishing;
const tooLongMessage = `a Bluesky post's text has at most ${TEXT.maxLength} graphemes (what a reader sees as one character)`;
/** The video types the video service takes (Bluesky's app uploads MP4 and QuickTime); what it stores is MP4. */
const VIDEO_TYPES = ['video/mp4', 'video/quicktime'];

function imageProblems(media: readonly DraftMedium[], field: string): PublishProblem[] {
  const problems: PublishProblem[] = [];
  if (media.length > BLUESKY_MAX_IMAGES)
    problems.push(problem(field, `a Bluesky post takes at most ${BLUESKY_MAX_IMAGES} images`));
  if (media.some((m) => (m.sizeBytes ?? 0) > BLUESKY_MAX_IMAGE_BYTES)) {
    problems.push(
      problem(field, `each image of a Bluesky post has at most ${BLUESKY_MAX_IMAGE_BYTES} bytes (its blob limit)`),
    );
  }
  return problems;
}

/** A post's media: 1 to 4 images, or one video alone (the first post's only: `videoAllowed`). */
function mediaProblems(media: readonly DraftMedium[], field: string, videoAllowed: boolean): PublishProblem[] {
  if (!media.some((m) => m.type === 'video')) return imageProblems(media, field);
  if (!videoAllowed) return [problem(field, "a thread's later posts take images; a video goes in its first post")];
  if (media.length > 1) return [problem(field, 'a Bluesky post takes one video, without images beside it')];
  const problems: PublishProblem[] = [];
  const video = media[0] as DraftMedium;
  if (typeof video.contentType === 'string' && !VIDEO_TYPES.includes(video.contentType)) {
    problems.push(problem(field, 'a Bluesky video is MP4 or QuickTime (MOV)'));
  }
  if ((video.sizeBytes ?? 0) > BLUESKY_MAX_VIDEO_BYTES) {
    problems.push(problem(field, `a Bluesky video has at most ${BLUESKY_MAX_VIDEO_BYTES} bytes`));
  }
  const long = durationProblem([...media], videoDurationFor(DURATIONS, 'single', {}), 'a Bluesky video');
  if (long !== null) problems.push({ ...long, field });
  return problems;
}

function altProblems(
  alts: readonly string[] | undefined,
  media: readonly DraftMedium[],
  field: string,
): PublishProblem[] {
  if (alts === undefined) return [];
  if (alts.length > media.length) return [problem(field, 'there is one alt text per medium of the post, at most')];
  const videoAlt = media[0]?.type === 'video' ? alts[0] : undefined;
  if (videoAlt !== undefined && countText(videoAlt, 'graphemes') > BLUESKY_MAX_VIDEO_ALT_GRAPHEMES) {
    return [problem(field, `a video's alt text has at most ${BLUESKY_MAX_VIDEO_ALT_GRAPHEMES} graphemes`)];
  }
  return [];
}

export function blueskyPublishRules(draft: PublishDraft): PublishProblem[] {
  const options = optionsOf(BLUESKY_OPTIONS, draft.options);
  const problems: PublishProblem[] = [];
  const text = draft.text ?? '';
  if (text.trim() === '' && draft.media.length === 0)
    problems.push(problem('text', 'a Bluesky post needs text, images or a video'));
  if (tooLong(TEXT, text)) problems.push(problem('text', tooLongMessage));
  problems.push(...mediaProblems(draft.media, 'media_ids', true));
  problems.push(...altProblems(options.alt_texts, draft.media, 'platforms.bluesky.alt_texts'));
  const card = options.link_card;
  if (card !== undefined) {
    if (draft.media.length > 0)
      problems.push(problem('platforms.bluesky.link_card', 'a Bluesky post with images or a video takes no link card'));
    if (!/^https?:\/\//.test(card.uri))
      problems.push(problem('platforms.bluesky.link_card.uri', 'the link is http or https'));
    const picture = (card.media_ids ?? []).flatMap((id) => draft.optionMedia?.[id] ?? []);
    if (picture.some((m) => m.type !== 'image'))
      problems.push(problem('platforms.bluesky.link_card.media_ids', "a link card's picture is an image"));
    else problems.push(...imageProblems(picture, 'platforms.bluesky.link_card.media_ids'));
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
    problems.push(...mediaProblems(known, `${at}.media_ids`, false));
    const given = post.media_ids ?? [];
    if (post.alt_texts !== undefined && post.alt_texts.length > given.length)
      problems.push(problem(`${at}.alt_texts`, 'there is one alt text per image of the post, at most'));
  }
  return problems;
}
