/**
 * The rule tsc checks (`npm run check`): no module's public entry hands out a query part (see
 * query-parts.ts). Every module is listed; dependency-rules.test.ts fails when one is missing.
 */
import type { HandsOutNoQueryPart, Holds } from './query-parts.ts';

export type PublicEntriesHandOutNoQueryPart = [
  Holds<HandsOutNoQueryPart<'accounts', typeof import('../../src/modules/accounts/index.ts')>>,
  Holds<HandsOutNoQueryPart<'api-keys', typeof import('../../src/modules/api-keys/index.ts')>>,
  Holds<HandsOutNoQueryPart<'audit', typeof import('../../src/modules/audit/index.ts')>>,
  Holds<HandsOutNoQueryPart<'catalogue', typeof import('../../src/modules/catalogue/index.ts')>>,
  Holds<HandsOutNoQueryPart<'comments', typeof import('../../src/modules/comments/index.ts')>>,
  Holds<HandsOutNoQueryPart<'connect', typeof import('../../src/modules/connect/index.ts')>>,
  Holds<HandsOutNoQueryPart<'events', typeof import('../../src/modules/events/index.ts')>>,
  Holds<HandsOutNoQueryPart<'insights', typeof import('../../src/modules/insights/index.ts')>>,
  Holds<HandsOutNoQueryPart<'media', typeof import('../../src/modules/media/index.ts')>>,
  Holds<HandsOutNoQueryPart<'members', typeof import('../../src/modules/members/index.ts')>>,
  Holds<HandsOutNoQueryPart<'owners', typeof import('../../src/modules/owners/index.ts')>>,
  Holds<HandsOutNoQueryPart<'platform-apps', typeof import('../../src/modules/platform-apps/index.ts')>>,
  Holds<HandsOutNoQueryPart<'posts', typeof import('../../src/modules/posts/index.ts')>>,
  Holds<HandsOutNoQueryPart<'profiles', typeof import('../../src/modules/profiles/index.ts')>>,
  Holds<HandsOutNoQueryPart<'reports', typeof import('../../src/modules/reports/index.ts')>>,
  Holds<HandsOutNoQueryPart<'webhooks', typeof import('../../src/modules/webhooks/index.ts')>>,
];
