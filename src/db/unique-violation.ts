/** True when `error` (or the error it wraps: drizzle wraps the driver's) is PostgreSQL's unique_violation. */
export function isUniqueViolation(error: unknown): boolean {
  const cause = error instanceof Error ? error.cause : undefined;
  return [error, cause].some((e) => typeof e === 'object' && e !== null && 'code' in e && e.code === '23505');
}
