/** The rules of a LinkedIn post checked before any call: its text, its images' count, its video. */
import { durationProblem, problem, tooLong, videoDurationFor } from '../publish-checks.ts';
import type { PublishDraft, PublishProblem } from '../types.ts';
import { LINKEDIN_MAX_VIDEO_BYTES, linkedinDefinition } from './definition.ts';

const { text: TEXT, carousel, videoDurations: DURATIONS } = linkedinDefinition.publishing;
const MAX_IMAGES = carousel.maxItems;

export function linkedinProblems({ text, media, options }: PublishDraft): PublishProblem[] {
  const problems: PublishProblem[] = [];
  const videos = media.filter((m) => m.type === 'video');
  if (videos.length > 0 && media.length > 1) {
    problems.push(problem('media_ids', 'a LinkedIn post has one video alone, or 1 to 20 images'));
  } else if (media.length > MAX_IMAGES) {
    problems.push(problem('media_ids', `a LinkedIn post has at most ${MAX_IMAGES} images`));
  }
  const long = durationProblem(media, videoDurationFor(DURATIONS, 'single', options ?? {}), 'a LinkedIn video');
  if (long !== null) problems.push(long);
  const large = videos.find((m) => typeof m.sizeBytes === 'number' && m.sizeBytes > LINKEDIN_MAX_VIDEO_BYTES);
  if (large !== undefined) {
    problems.push(
      problem(
        'media_ids',
        `a LinkedIn video has at most 500 MB (this one: ${Math.ceil((large.sizeBytes ?? 0) / 1_048_576)} MB)`,
      ),
    );
  }
  if (media.length === 0 && (text ?? '').trim() === '') {
    problems.push(problem('text', 'a LinkedIn post without media needs text'));
  }
  if (tooLong(TEXT, text ?? '')) {
    problems.push(problem('text', `a LinkedIn post's text has at most ${TEXT.maxLength} characters`));
  }
  return problems;
}
