/**
 * Publishing to YouTube: not offered yet. Every post is refused before anything is stored, so
 * none can reach a call below; the calls refuse as `unsupported` all the same.
 */
import { unsupported } from '../errors.ts';
import { problem, tooLong } from '../publish-checks.ts';
import type { PublishDraft, PublishingCapability, PublishProblem } from '../types.ts';
import { youtubeDefinition } from './definition.ts';

const platform = 'youtube';
const { text: TEXT } = youtubeDefinition.publishing;

export function youtubeProblems({ text }: PublishDraft): PublishProblem[] {
  const problems = [problem('media_ids', 'the service does not publish videos to YouTube yet: channels connect only')];
  if (tooLong(TEXT, text ?? '')) {
    problems.push(problem('text', `a YouTube video's description has at most ${TEXT.maxLength} bytes (UTF-8)`));
  }
  return problems;
}

export function youtubePublishing(): PublishingCapability {
  const refuse = () => Promise.reject(unsupported(platform, 'publishing through Switchboard yet'));
  return {
    checkPublish: youtubeProblems,
    publishingQuota: async () => null,
    createContainer: refuse,
    containerStatus: refuse,
    publishContainer: refuse,
    findPublished: refuse,
  };
}
