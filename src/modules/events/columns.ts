/** What other modules' tables may reference of the events module: an event's id. */
import { uuid } from 'drizzle-orm/pg-core';
import { events } from './tables.ts';

/** The event a row is about; deleting the event deletes the row. */
export const eventIdColumn = () =>
  uuid('event_id')
    .notNull()
    .references(() => events.id, { onDelete: 'cascade' });
