/** The rules of a page post, checked before any call (docs/platforms.md, "Facebook Pages"). */
import { isHttpUrl, optionsOf, problem, tooLong } from '../publish-checks.ts';
import type { PublishDraft, PublishProblem } from '../types.ts';
import { FACEBOOK_OPTIONS, facebookDefinition } from './definition.ts';

const TEXT = facebookDefinition.publishing.text;

/** Every rule of a page post the draft breaks: text, a link or images; no video through the service. */
export function facebookProblems({ text, media, options }: PublishDraft): PublishProblem[] {
  const problems: PublishProblem[] = [];
  const { link } = optionsOf(FACEBOOK_OPTIONS, options);
  if (link !== undefined && !isHttpUrl(link)) {
    problems.push(problem('platforms.facebook.link', 'must be an absolute http(s) URL'));
  }
  if ((text ?? '').trim() === '' && media.length === 0 && link === undefined) {
    problems.push(problem('text', 'a Facebook post needs text, a link or images'));
  }
  if (tooLong(TEXT, text ?? '')) {
    problems.push(problem('text', `a Facebook post has at most ${TEXT.maxLength} characters`));
  }
  if (media.some((m) => m.type === 'video')) {
    problems.push(problem('media_ids', 'videos are not published to Facebook pages (images only)'));
  }
  return problems;
}
