/**
 * The switches the control API sets (`PUT /_control/settings/<name>`, docs/sandbox.md): each
 * declared by the part that reads it, and listed by the platforms that read it.
 */

/** A switch: its name, its default and what it takes (a JSON value). */
export interface Setting<T extends string | number = string | number> {
  readonly name: string;
  readonly default: T;
  /** The value as the setting holds it, or null when it is not one it takes. */
  read(value: unknown): T | null;
  /** What it takes, for the control API's refusal. */
  readonly takes: string;
}

/** One of `values`, the first by default. */
export function oneOf<const T extends string>(name: string, values: readonly T[]): Setting<T> {
  return {
    name,
    default: values[0] as T,
    read: (value) => ((values as readonly unknown[]).includes(value) ? (value as T) : null),
    takes: `one of ${values.join(', ')}`,
  };
}

/** A whole number from 0 to `max` (`what`: how the refusal names it). */
export function wholeNumber(name: string, fallback: number, max: number, what = 'a whole number'): Setting<number> {
  return {
    name,
    default: fallback,
    read: (value) =>
      Number.isInteger(value) && (value as number) >= 0 && (value as number) <= max ? (value as number) : null,
    takes: `${what} from 0 to ${max}`,
  };
}

export const seconds = (name: string, fallback: number, max: number) =>
  wholeNumber(name, fallback, max, 'a whole number of seconds');

/** A wait that may never end: a whole number of seconds from 0 to `max`, or `"never"`. */
export function secondsOrNever(name: string, fallback: number, max: number): Setting<number | 'never'> {
  const counted = seconds(name, fallback, max);
  return {
    name,
    default: fallback,
    read: (value) => (value === 'never' ? 'never' : counted.read(value)),
    takes: `${counted.takes}, or "never"`,
  };
}

/** Such a wait in milliseconds (`never`: one that no time reaches). */
export function waitMs(value: number | 'never'): number {
  return value === 'never' ? Number.POSITIVE_INFINITY : value * 1000;
}

/** Comma-separated values, or `*`. */
export function commaList(name: string, fallback: string): Setting<string> {
  return {
    name,
    default: fallback,
    read: (value) => (typeof value === 'string' && value.trim() !== '' && value.length <= 2000 ? value : null),
    takes: 'a comma-separated list (or *)',
  };
}
