/** The rules of a Bluesky post checked before any call: its text in graphemes, and what it can hold so far. */
import { problem, tooLong } from '../publish-checks.ts';
import type { PublishDraft, PublishProblem } from '../types.ts';
import { blueskyDefinition } from './definition.ts';

const { text: TEXT } = blueskyDefinition.publishing;

export function blueskyPublishRules(draft: PublishDraft): PublishProblem[] {
  const problems: PublishProblem[] = [];
  const text = draft.text ?? '';
  if (text.trim() === '') problems.push(problem('text', 'a Bluesky post needs text'));
  if (tooLong(TEXT, text)) {
    problems.push(
      problem(
        'text',
        `a Bluesky post's text has at most ${TEXT.maxLength} graphemes (what a reader sees as one character)`,
      ),
    );
  }
  if (draft.media.length > 0)
    problems.push(problem('media_ids', 'Bluesky posts through Switchboard take no media yet'));
  return problems;
}
