/**
 * An account's access as a workflow: `connected` while its token works (refreshed ahead of its
 * expiry, a failed refresh retried), `expired` when the token ran out or a refresh was refused
 * for good, `disconnected` when access was revoked or the owner disconnected it. A new account
 * is stored `connected`; every change of `status` after that is a transition here, the way back
 * included: a login of the same platform account (a connect link of its profile, or a reconnect
 * link of the account) reconnects it from any state.
 */
import { defineWorkflow, workflowTable } from '../../jobs/workflow.ts';
import { accounts } from './tables.ts';

export const accessWorkflow = defineWorkflow({
  name: 'account access',
  states: {
    connected: { status: 'connected' },
    expired: { status: 'expired' },
    disconnected: { status: 'disconnected' },
  },
  initial: ['connected'],
  transitions: {
    /** The token was refreshed. */
    refresh: { from: ['connected'] },
    /** A refresh failed in passing: tried again later. */
    retry_refresh: { from: ['connected'] },
    /** The token ran out, or the platform refused to refresh it for good. */
    expire: { from: ['connected'], to: 'expired' },
    /** Access was revoked on the platform, or the owner disconnected the account. */
    disconnect: { from: ['connected', 'expired'], to: 'disconnected' },
    /** The account's user signed in again: new tokens and profile, `connected` whatever it was. */
    reconnect: { from: ['connected', 'expired', 'disconnected'], to: 'connected' },
  },
});

export const accountAccess = workflowTable(accessWorkflow, accounts, accounts.id);
