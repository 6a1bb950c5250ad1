/** When a Google project's daily quotas last reset: midnight Pacific Time ("Quota Calculator"). */
export function lastPacificMidnight(at: Date): Date {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Los_Angeles',
    hourCycle: 'h23',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const elapsedMs = (part('hour') * 3600 + part('minute') * 60 + part('second')) * 1000 + at.getUTCMilliseconds();
  return new Date(at.getTime() - elapsedMs);
}
