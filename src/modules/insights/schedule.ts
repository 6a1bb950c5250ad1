/** The periods the insights module works by (the spec's 6 hours; the platforms' late data). */

/** The spec's period between two refreshes of an account. */
export const REFRESH_INTERVAL_MS = 6 * 3_600_000;
/** Days each refresh reads again, today included: figures may come up to 48 h late (Instagram). */
export const REFRESH_DAYS = 3;
/** How far back the history goes: a year with the refresh's days. */
export const HISTORY_DAYS = 365;
