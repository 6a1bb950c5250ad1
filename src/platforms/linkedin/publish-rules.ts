/** The rules of a LinkedIn post checked before any call: its text, and its images' count. */
import { problem, tooLong } from '../publish-checks.ts';
import type { PublishDraft, PublishProblem } from '../types.ts';
import { linkedinDefinition } from './definition.ts';

const { text: TEXT, carousel } = linkedinDefinition.publishing;
const MAX_IMAGES = carousel.maxItems;

export function linkedinProblems({ text, media }: PublishDraft): PublishProblem[] {
  const problems: PublishProblem[] = [];
  if (media.some((m) => m.type !== 'image')) {
    problems.push(
      problem('media_ids', 'a LinkedIn post takes images only for now (text alone, one image, or 2 to 20 images)'),
    );
  } else if (media.length > MAX_IMAGES) {
    problems.push(problem('media_ids', `a LinkedIn post has at most ${MAX_IMAGES} images`));
  }
  if (media.length === 0 && (text ?? '').trim() === '') {
    problems.push(problem('text', 'a LinkedIn post without images needs text'));
  }
  if (tooLong(TEXT, text ?? '')) {
    problems.push(problem('text', `a LinkedIn post's text has at most ${TEXT.maxLength} characters`));
  }
  return problems;
}
