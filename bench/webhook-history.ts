/**
 * The webhook bench's history: what a service that has delivered for a while holds before a
 * burst, the 30 days of deliveries it keeps (HISTORY_DAYS) and their events. Written straight
 * into the tables, as the comments bench seeds its comments, with the keys the service makes
 * (version 7 UUIDs, `switchboard_uuid_v7()`, here of the row's time), each
 * delivery succeeded at its first attempt, kept in its row. A fresh table is not what the writes
 * of a burst meet in production: there its indexes are larger than the buffers, and a checkpoint
 * (every 5 minutes by default) has just made each page's next change log the whole page.
 */
import type pg from 'pg';
import { HISTORY_DAYS } from '../src/modules/webhooks/deliveries.ts';
import { EVENT_TYPE, eventData } from './fanout.ts';
import { inTransaction } from './transaction.ts';

/** Up to a day before the end of the days the service keeps, so the retention job deletes none of it during a run. */
export const HISTORY_SPAN_DAYS = HISTORY_DAYS - 1;

/**
 * Writes `deliveries` deliveries of `deliveries / endpoints` events spread over the last HISTORY_SPAN_DAYS days,
 * then VACUUM ANALYZE (the service's tables as autovacuum keeps them) and a checkpoint.
 */
export async function seedHistory(
  pool: pg.Pool,
  ownerId: string,
  endpointIds: readonly string[],
  deliveries: number,
): Promise<{ events: number; deliveries: number }> {
  const events = Math.ceil(deliveries / endpointIds.length);
  // One event's envelope, of the size the measured events have, stands for every event's.
  const data = eventData(0);
  const envelope = JSON.stringify({ id: '', type: EVENT_TYPE, created_at: '', profile_id: null, data });
  await inTransaction(pool, async (client) => {
    await client.query(
      `create temporary table bench_history on commit drop as
         select now() - make_interval(secs => ${HISTORY_SPAN_DAYS} * 86400 * (1 - i::float8 / $1)) as at
         from generate_series(1, $1) as i`,
      [events],
    );
    await client.query(
      `with history as (
         insert into events (id, owner_id, profile_id, type, data, body, created_at)
         select switchboard_uuid_v7(h.at), $1, null, $2, $3::jsonb, $4, h.at from bench_history h
         returning id, created_at)
       insert into webhook_deliveries (id, owner_id, endpoint_id, event_id, event_profile_id, status, attempt_count,
         next_attempt_at, attempts, created_at, updated_at)
       select switchboard_uuid_v7(ev.created_at), $1, e.id, ev.id, null, 'succeeded', 1, null,
         jsonb_build_array(jsonb_build_object('attempted_at', to_char(ev.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'duration_ms', 3, 'status_code', 200, 'error', null, 'response_body', '', 'succeeded', true)),
         ev.created_at, ev.created_at
       from history ev cross join unnest($5::text[]) as e(id)
       order by ev.created_at`,
      [ownerId, EVENT_TYPE, JSON.stringify(data), envelope, endpointIds],
    );
  });
  await pool.query('vacuum analyze events, webhook_deliveries');
  await pool.query('checkpoint');
  return { events, deliveries: events * endpointIds.length };
}
