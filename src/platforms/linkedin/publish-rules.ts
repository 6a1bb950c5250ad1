/** The rules of a LinkedIn post checked before any call: its text, its images' count, its video or document. */
import { durationProblem, optionsOf, problem, tooLong, videoDurationFor } from '../publish-checks.ts';
import type { PublishDraft, PublishProblem } from '../types.ts';
import {
  LINKEDIN_MAX_DOCUMENT_BYTES,
  LINKEDIN_MAX_VIDEO_BYTES,
  LINKEDIN_OPTIONS,
  linkedinDefinition,
} from './definition.ts';

const { text: TEXT, carousel, videoDurations: DURATIONS } = linkedinDefinition.publishing;
const MAX_IMAGES = carousel.maxItems;
const MIB = 1_048_576;

/** A medium larger than `limit` bytes, when its size is known. */
function tooLarge(media: PublishDraft['media'], type: 'video' | 'document', limit: number): PublishProblem | null {
  const large = media.find((m) => m.type === type && typeof m.sizeBytes === 'number' && m.sizeBytes > limit);
  return large === undefined
    ? null
    : problem(
        'media_ids',
        `a LinkedIn ${type} has at most ${limit / MIB} MB (this one: ${Math.ceil((large.sizeBytes ?? 0) / MIB)} MB)`,
      );
}

export function linkedinProblems({ text, media, options: given }: PublishDraft): PublishProblem[] {
  const problems: PublishProblem[] = [];
  const alone = media.filter((m) => m.type !== 'image');
  if (alone.length > 0 && media.length > 1) {
    problems.push(problem('media_ids', 'a LinkedIn post has one video or one document alone, or 1 to 20 images'));
  } else if (media.length > MAX_IMAGES) {
    problems.push(problem('media_ids', `a LinkedIn post has at most ${MAX_IMAGES} images`));
  }
  const long = durationProblem(media, videoDurationFor(DURATIONS, 'single', given ?? {}), 'a LinkedIn video');
  if (long !== null) problems.push(long);
  for (const large of [
    tooLarge(media, 'video', LINKEDIN_MAX_VIDEO_BYTES),
    tooLarge(media, 'document', LINKEDIN_MAX_DOCUMENT_BYTES),
  ]) {
    if (large !== null) problems.push(large);
  }
  const title = optionsOf(LINKEDIN_OPTIONS, given).document_title;
  const document = media.some((m) => m.type === 'document');
  if (document && (typeof title !== 'string' || title.trim() === '')) {
    problems.push(problem('platforms.linkedin.document_title', 'a LinkedIn document post needs a title'));
  } else if (!document && title !== undefined) {
    problems.push(problem('platforms.linkedin.document_title', 'only a post whose medium is a document has a title'));
  }
  if (media.length === 0 && (text ?? '').trim() === '') {
    problems.push(problem('text', 'a LinkedIn post without media needs text'));
  }
  if (tooLong(TEXT, text ?? '')) {
    problems.push(problem('text', `a LinkedIn post's text has at most ${TEXT.maxLength} characters`));
  }
  return problems;
}
