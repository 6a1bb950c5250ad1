import type { Db } from '../db/connection.ts';
import type { CallLog } from './calls.ts';

/** What every part of the sandbox works with: its database, its clock and its call log. */
export interface Store {
  db: Db;
  now: () => Date;
  /** The calls the imitated APIs received (in this process's memory, not in the database). */
  calls: CallLog;
}
