/** The Instagram professional account's profile (`/me`). */
import type { FastifyInstance } from 'fastify';
import { caller, requireScope } from '../caller.ts';
import { pick, requestedFields } from '../meta/fields.ts';
import type { Store } from '../platform.ts';
import { call, SCOPE } from './access.ts';
import { instagramAppScopedId } from './ids.ts';

export function profileRoutes(app: FastifyInstance, store: Store): void {
  app.get('/:version/me', async (request) => {
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.basic);
    const a = who.account;
    // "id: The app user's app-scoped ID"; "user_id: The Instagram professional acount ID,
    // <IG_ID> ... This ID is value of the id field received in webhook notifications" (Get Started).
    return pick(
      {
        id: instagramAppScopedId(a.id),
        user_id: a.id,
        username: a.username,
        name: a.name,
        account_type: 'BUSINESS',
        profile_picture_url: a.avatarUrl,
        followers_count: a.followersCount,
        media_count: 0,
      },
      requestedFields(request, ['id']),
    );
  });
}
