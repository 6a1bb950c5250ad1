/** The rules of a YouTube video checked before any call: one video, its title, description and tags as the Videos resource limits them. */
import { optionsOf, problem, tooLong } from '../publish-checks.ts';
import type { PublishDraft, PublishProblem } from '../types.ts';
import { YOUTUBE_OPTIONS, youtubeDefinition } from './definition.ts';

const { text: TEXT } = youtubeDefinition.publishing;
const ANGLE = /[<>]/;
const MAX_TITLE = 100;
const MAX_TAGS = 500;

/** Tags as YouTube counts them: their characters, the commas between them, quotes around a tag with a space. */
function tagsLength(tags: readonly string[]): number {
  const each = tags.reduce((n, tag) => n + [...tag].length + (tag.includes(' ') ? 2 : 0), 0);
  return each + Math.max(0, tags.length - 1);
}

export function youtubeProblems({ text, media, options }: PublishDraft): PublishProblem[] {
  const problems: PublishProblem[] = [];
  if (media.length !== 1 || media[0]?.type !== 'video') {
    problems.push(problem('media_ids', 'a YouTube post is one video'));
  }
  const description = text ?? '';
  if (tooLong(TEXT, description)) {
    problems.push(problem('text', `a YouTube video's description has at most ${TEXT.maxLength} bytes (UTF-8)`));
  }
  if (ANGLE.test(description)) problems.push(problem('text', 'a YouTube description may not hold < or >'));
  const { title, tags, made_for_kids } = optionsOf(YOUTUBE_OPTIONS, options);
  if (typeof title !== 'string' || title.trim() === '') {
    problems.push(problem('platforms.youtube.title', 'a YouTube video needs a title'));
  } else if ([...title].length > MAX_TITLE || ANGLE.test(title)) {
    problems.push(
      problem('platforms.youtube.title', `a YouTube title has at most ${MAX_TITLE} characters, without < or >`),
    );
  }
  if (typeof made_for_kids !== 'boolean') {
    problems.push(
      problem('platforms.youtube.made_for_kids', 'YouTube requires the declaration whether the video is made for kids'),
    );
  }
  if (Array.isArray(tags) && (tagsLength(tags) > MAX_TAGS || tags.some((t) => ANGLE.test(t)))) {
    problems.push(
      problem('platforms.youtube.tags', `YouTube's tags have at most ${MAX_TAGS} characters in all, without < or >`),
    );
  }
  return problems;
}
