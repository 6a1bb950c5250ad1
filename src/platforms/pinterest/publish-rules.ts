/** The rules of a pin checked before any call: its media, its description, its board and options. */
import { durationProblem, isHttpUrl, optionsOf, problem, tooLong, videoDurationFor } from '../publish-checks.ts';
import type { PublishDraft, PublishProblem } from '../types.ts';
import {
  PINTEREST_MAX_IMAGE_BYTES,
  PINTEREST_MAX_VIDEO_BYTES,
  PINTEREST_OPTIONS,
  pinterestDefinition,
} from './definition.ts';

const { text: TEXT, carousel, videoDurations: DURATIONS } = pinterestDefinition.publishing;
const MIB = 1_048_576;
const at = (option: string) => `platforms.pinterest.${option}`;

/** Each option's length as Create Pin limits it (the schema states the same: checked again for the adapter's own calls). */
const OPTION_LIMITS = { title: 100, alt_text: 500, link: 2048 } as const;

function mediaProblems(media: PublishDraft['media']): PublishProblem[] {
  if (media.length === 0) return [problem('media_ids', 'a pin has an image, 2 to 5 images, or a video')];
  const videos = media.filter((m) => m.type === 'video');
  if (media.some((m) => m.type === 'document')) return [problem('media_ids', 'a pin takes no document')];
  if (videos.length > 0 && media.length > 1) return [problem('media_ids', 'a video pin has its video alone')];
  if (media.length > carousel.maxItems) {
    return [problem('media_ids', `a carousel pin has at most ${carousel.maxItems} images`)];
  }
  const problems: PublishProblem[] = [];
  const long = durationProblem(media, videoDurationFor(DURATIONS, 'single', {}), 'a Pinterest video');
  if (long !== null) problems.push(long);
  for (const m of media) {
    const limit = m.type === 'video' ? PINTEREST_MAX_VIDEO_BYTES : PINTEREST_MAX_IMAGE_BYTES;
    if (typeof m.sizeBytes === 'number' && m.sizeBytes > limit) {
      problems.push(problem('media_ids', `a Pinterest ${m.type} has at most ${limit / MIB} MB`));
      break;
    }
  }
  return problems;
}

export function pinterestProblems({ text, media, options: given }: PublishDraft): PublishProblem[] {
  const problems = mediaProblems(media);
  if (tooLong(TEXT, text ?? '')) {
    problems.push(problem('text', `a pin's description has at most ${TEXT.maxLength} characters`));
  }
  const options = optionsOf(PINTEREST_OPTIONS, given);
  if (typeof options.board_id !== 'string' || !/^[0-9]{1,30}$/.test(options.board_id)) {
    problems.push(problem(at('board_id'), "a pin needs the board it is saved to: one of the account's board ids"));
  }
  for (const [name, limit] of Object.entries(OPTION_LIMITS)) {
    const value = (options as Record<string, unknown>)[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || [...value].length > limit) {
      problems.push(problem(at(name), `at most ${limit} characters`));
    }
  }
  if (options.link !== undefined && !isHttpUrl(options.link)) {
    problems.push(problem(at('link'), 'an http(s) URL'));
  }
  if (options.cover_frame_seconds !== undefined && !media.some((m) => m.type === 'video')) {
    problems.push(problem(at('cover_frame_seconds'), "a cover frame is a video pin's: this pin has no video"));
  }
  return problems;
}
