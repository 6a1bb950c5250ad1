/** What reading comments shares on Meta's platforms. */
import { PlatformError } from '../types.ts';
import { graphDate, isGone } from './graph-answers.ts';
import type { GraphClient } from './graph-client.ts';

/**
 * Each comment's own time, read one by one (`GET /{comment-id}?fields=<timeField>`): the one
 * read Meta documents for a comment on every host (Graph's `?ids=` batch read is documented
 * for graph.facebook.com only). A comment the platform no longer has is left out.
 */
export async function commentTimesByReading(
  graph: GraphClient,
  token: string,
  commentIds: readonly string[],
  timeField: 'timestamp' | 'created_time',
): Promise<Map<string, Date>> {
  const times = new Map<string, Date>();
  for (const id of new Set(commentIds)) {
    let body: Record<string, unknown>;
    try {
      body = await graph.get(`/${id}`, token, { fields: timeField });
    } catch (error) {
      if (isGone(error)) continue;
      throw error;
    }
    const time = graphDate(body[timeField]);
    if (time === null)
      throw new PlatformError('transient', `${graph.platform} answered a comment without its time`, {
        platform: graph.platform,
      });
    times.set(id, time);
  }
  return times;
}
