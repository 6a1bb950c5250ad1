/** The rules of an X post checked before any call: its text as X weighs it, and what it can hold so far. */
import { optionsOf, problem, tooLong } from '../publish-checks.ts';
import type { PublishDraft, PublishProblem } from '../types.ts';
import { X_OPTIONS, xDefinition } from './definition.ts';

const { text: TEXT } = xDefinition.publishing;
const POST_ID = /^\d{1,19}$/;

export function xProblems({ text, media, options }: PublishDraft): PublishProblem[] {
  const problems: PublishProblem[] = [];
  if (media.length > 0) problems.push(problem('media_ids', 'an X post takes text only for now'));
  if ((text ?? '').trim() === '') problems.push(problem('text', 'an X post needs text'));
  if (tooLong(TEXT, text ?? '')) {
    problems.push(
      problem(
        'text',
        `an X post's text weighs at most ${TEXT.maxLength} (X's weighted count: links 23, CJK and emoji 2)`,
      ),
    );
  }
  const { reply_to: replyTo } = optionsOf(X_OPTIONS, options);
  if (replyTo !== undefined && (typeof replyTo !== 'string' || !POST_ID.test(replyTo))) {
    problems.push(problem('platforms.x.reply_to', 'reply_to is the id of an X post (digits)'));
  }
  return problems;
}
