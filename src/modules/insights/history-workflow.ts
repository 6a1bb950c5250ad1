/**
 * An account's insights history as a workflow: `reading` while days are left to read (a gap a
 * refresh missed, then the year before the account was first seen), `read` once every day is
 * read. The refreshes every 6 hours are not part of it: they run whatever the history's state.
 */
import { defineWorkflow, workflowTable } from '../../jobs/workflow.ts';
import { insightSyncState } from './tables.ts';

export const historyWorkflow = defineWorkflow({
  name: 'insights history',
  states: { reading: { history: 'reading' }, read: { history: 'read' } },
  initial: ['reading'],
  transitions: {
    /** A step of 30 days is read and stored; its cursor moves back past them. */
    step: { from: ['reading'] },
    /** The last step is read: the gap and the history are done. */
    finish: { from: ['reading'], to: 'read' },
    /** A refresh found days no refresh read (the account was expired, or no worker ran): a gap to read first. */
    miss: { from: ['reading', 'read'], to: 'reading' },
  },
});

export const histories = workflowTable(historyWorkflow, insightSyncState, insightSyncState.accountId);
