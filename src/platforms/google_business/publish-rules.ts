/**
 * The rules of a local post checked before any call: its summary's length, one photo at most,
 * an event's or offer's title and schedule, an offer's fields, the call to action's button and
 * link, as the LocalPost resource and Business Profile Help state them.
 */
import { isHttpUrl, optionsOf, problem, tooLong } from '../publish-checks.ts';
import type { PublishDraft, PublishProblem } from '../types.ts';
import { GOOGLE_BUSINESS_OPTIONS, googleBusinessDefinition } from './definition.ts';

const { text: TEXT } = googleBusinessDefinition.publishing;
const FIELD = 'platforms.google_business';
/** An event's or offer's title: "up to 58 characters" (Business Profile Help). */
const MAX_TITLE = 58;

/** A local date (and time of day) as Google's Date and TimeOfDay name it, or null when it is no real one. */
export interface LocalTime {
  date: { year: number; month: number; day: number };
  time: { hours: number; minutes: number } | null;
}

export function localTime(value: unknown): LocalTime | null {
  if (typeof value !== 'string') return null;
  const match = /^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:T([0-9]{2}):([0-9]{2}))?$/.exec(value);
  if (match === null) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = new Date(Date.UTC(year, month - 1, day));
  if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day) return null;
  if (match[4] === undefined) return { date: { year, month, day }, time: null };
  const [hours, minutes] = [Number(match[4]), Number(match[5])];
  if (hours > 23 || minutes > 59) return null;
  return { date: { year, month, day }, time: { hours, minutes } };
}

/** Minutes since the epoch, to order two local times of one place. */
function minutesOf({ date, time }: LocalTime): number {
  return Date.UTC(date.year, date.month - 1, date.day) / 60_000 + (time === null ? 0 : time.hours * 60 + time.minutes);
}

function eventProblems(event: unknown, needed: boolean, type: string): PublishProblem[] {
  if (event === undefined) {
    return needed ? [problem(`${FIELD}.event`, `a Google ${type} post needs an event: its title, start and end`)] : [];
  }
  if (!needed) return [problem(`${FIELD}.event`, 'only an event or an offer takes an event')];
  const { title, start, end } = (event ?? {}) as Record<string, unknown>;
  const problems: PublishProblem[] = [];
  if (typeof title !== 'string' || title.trim() === '' || [...title].length > MAX_TITLE) {
    problems.push(
      problem(`${FIELD}.event.title`, `a Google event's or offer's title has 1 to ${MAX_TITLE} characters`),
    );
  }
  const from = localTime(start);
  const to = localTime(end);
  if (from === null)
    problems.push(problem(`${FIELD}.event.start`, 'not a date (YYYY-MM-DD) or a date and time (YYYY-MM-DDTHH:MM)'));
  if (to === null)
    problems.push(problem(`${FIELD}.event.end`, 'not a date (YYYY-MM-DD) or a date and time (YYYY-MM-DDTHH:MM)'));
  if (from !== null && to !== null) {
    if ((from.time === null) !== (to.time === null)) {
      problems.push(problem(`${FIELD}.event.end`, 'a time of day on both the start and the end, or on neither'));
    } else if (minutesOf(to) < minutesOf(from) || (from.time !== null && minutesOf(to) === minutesOf(from))) {
      problems.push(problem(`${FIELD}.event.end`, 'the end comes before the start'));
    }
  }
  return problems;
}

function offerProblems(offer: unknown, isOffer: boolean): PublishProblem[] {
  if (offer === undefined) return [];
  if (!isOffer) return [problem(`${FIELD}.offer`, 'only an offer takes an offer')];
  const { redeem_url } = (offer ?? {}) as Record<string, unknown>;
  return redeem_url === undefined || isHttpUrl(redeem_url)
    ? []
    : [problem(`${FIELD}.offer.redeem_url`, 'not an http(s) URL')];
}

function actionProblems(action: unknown, isOffer: boolean): PublishProblem[] {
  if (action === undefined) return [];
  if (isOffer) {
    return [
      problem(
        `${FIELD}.call_to_action`,
        "Google ignores a call to action on an offer: its link is the offer's redeem_url",
      ),
    ];
  }
  const { type, url } = (action ?? {}) as Record<string, unknown>;
  if (type === 'CALL') {
    return url === undefined
      ? []
      : [problem(`${FIELD}.call_to_action.url`, "CALL calls the location's number and takes no link")];
  }
  return isHttpUrl(url) ? [] : [problem(`${FIELD}.call_to_action.url`, `${String(type)} needs an http(s) link`)];
}

export function googleBusinessProblems({ text, media, options }: PublishDraft): PublishProblem[] {
  const problems: PublishProblem[] = [];
  if (media.length > 1 || media.some((m) => m.type !== 'image')) {
    problems.push(problem('media_ids', 'a Google local post takes one photo at most'));
  }
  if (tooLong(TEXT, text ?? '')) {
    problems.push(problem('text', `a Google local post's summary has at most ${TEXT.maxLength} characters`));
  }
  const { type = 'update', event, offer, call_to_action } = optionsOf(GOOGLE_BUSINESS_OPTIONS, options);
  const isOffer = type === 'offer';
  problems.push(...eventProblems(event, type === 'event' || isOffer, type));
  problems.push(...offerProblems(offer, isOffer));
  problems.push(...actionProblems(call_to_action, isOffer));
  return problems;
}
