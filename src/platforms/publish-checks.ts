/** What the adapters' checkPublish share: the problems a post has, found before any call, and the refusal they make. */
import type { Static, TObject } from 'typebox';
import type { TextRules, VideoDuration } from './definition.ts';
import {
  type DraftMedium,
  type Platform,
  PlatformError,
  type PostOptions,
  type PublishDraft,
  type PublishProblem,
  type PublishRequest,
  type RequestMedium,
} from './types.ts';

export function problem(field: string, message: string): PublishProblem {
  return { field, message };
}

/** The draft a request stands for, to check it again before calling. */
export function draftOf(request: PublishRequest): PublishDraft {
  const drafted = (m: RequestMedium): DraftMedium => ({
    type: m.type,
    durationSeconds: m.durationSeconds ?? null,
    sizeBytes: m.sizeBytes ?? null,
  });
  const { optionMedia } = request;
  return {
    ...(request.text !== undefined ? { text: request.text } : {}),
    media: request.media.map(drafted),
    ...(request.options !== undefined ? { options: request.options } : {}),
    ...(optionMedia === undefined
      ? {}
      : { optionMedia: Object.fromEntries(Object.entries(optionMedia).map(([id, m]) => [id, drafted(m)])) }),
  };
}

/**
 * A post's options as the platform's schema names them. Each value is still data: the API
 * checked them against the schema before storing the post, and checkPublish checks each again
 * (a value of the wrong kind is a problem it reports, never a crash).
 */
export function optionsOf<T extends TObject>(_schema: T, options: PostOptions | undefined): Partial<Static<T>> {
  return (options ?? {}) as Partial<Static<T>>;
}

/** Refuses, before any call (or any further call), a request that breaks the platform's rules, naming each problem. */
export function refuseProblems(platform: Platform, problems: PublishProblem[]): void {
  if (problems.length === 0) return;
  const message = problems.map((p) => `${p.field}: ${p.message}`).join('; ');
  throw new PlatformError('invalid_request', `${platform}: ${message}`, {
    platform,
    platformMessage: message,
    problems,
  });
}

/** An absolute http(s) URL. */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** Whether a text is longer than the platform takes, counted its way. */
export function tooLong(rules: TextRules, text: string): boolean {
  return rules.counting.length(text) > rules.maxLength;
}

/**
 * The rule on a video's length going `where` in a post with `options`: the one chosen by options
 * the post has (Instagram's `type: reel`), else the one for any other post; none: no rule.
 */
export function videoDurationFor(
  durations: readonly VideoDuration[],
  where: VideoDuration['in'],
  options: PostOptions,
): VideoDuration | undefined {
  const chosen = (rule: VideoDuration) =>
    Object.entries(rule.options ?? {}).every(([name, value]) => options[name] === value);
  const candidates = durations.filter((rule) => rule.in === where);
  return (
    candidates.find((rule) => rule.options !== undefined && chosen(rule)) ??
    candidates.find((rule) => rule.options === undefined)
  );
}

/** A video whose duration, when it is known, is outside the rule's. */
export function durationProblem(
  media: PublishDraft['media'],
  rule: VideoDuration | undefined,
  what: string,
): PublishProblem | null {
  if (rule === undefined) return null;
  const outside = media.find(
    (m) =>
      m.type === 'video' &&
      typeof m.durationSeconds === 'number' &&
      (m.durationSeconds < rule.minSeconds || m.durationSeconds > rule.maxSeconds),
  );
  return outside === undefined
    ? null
    : problem(
        'media_ids',
        `${what} lasts ${rule.minSeconds} to ${rule.maxSeconds} seconds (this video: ${outside.durationSeconds} s)`,
      );
}

/** Whether `value`, when given, is a boolean (options arrive from JSON). */
export function booleanProblem(value: unknown, field: string): PublishProblem | null {
  return value === undefined || typeof value === 'boolean' ? null : problem(field, 'must be true or false');
}
