/** Every table of the service, for tests that read or arrange stored state directly. */
export { idempotencyKeys } from '../../src/http/tables.ts';
export { workerProcesses } from '../../src/jobs/tables.ts';
export { accounts } from '../../src/modules/accounts/tables.ts';
export { apiKeys, dashboardSessions } from '../../src/modules/api-keys/tables.ts';
export { auditEntries } from '../../src/modules/audit/tables.ts';
export { commentReplies, commentSyncState, comments } from '../../src/modules/comments/tables.ts';
export {
  connectAttempts,
  connectLinks,
  connectRedirectOrigins,
  connectSettings,
} from '../../src/modules/connect/tables.ts';
export { events } from '../../src/modules/events/tables.ts';
export {
  accountInsightSeries,
  insightManualSyncs,
  insightSyncState,
  postInsights,
} from '../../src/modules/insights/tables.ts';
export { media } from '../../src/modules/media/tables.ts';
export { memberRoles, memberSessions, members, memberTokens } from '../../src/modules/members/tables.ts';
export { owners } from '../../src/modules/owners/tables.ts';
export { platformApps } from '../../src/modules/platform-apps/tables.ts';
export { posts, postTargets } from '../../src/modules/posts/tables.ts';
export { profiles } from '../../src/modules/profiles/tables.ts';
export {
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
} from '../../src/modules/webhooks/tables.ts';
