/** TikTok's user info: the fields each scope lets an app read. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Caller, caller, requireScope } from '../caller.ts';
import { requiredParam } from '../kit.ts';
import type { Store } from '../platform.ts';
import { call, SCOPE } from './access.ts';
import { ok, tiktok } from './envelope.ts';

/** The user info fields the sandbox knows, and the scope each needs. */
const USER_FIELDS: Record<string, string> = {
  open_id: SCOPE.basic,
  union_id: SCOPE.basic,
  avatar_url: SCOPE.basic,
  avatar_url_100: SCOPE.basic,
  avatar_large_url: SCOPE.basic,
  display_name: SCOPE.basic,
  bio_description: SCOPE.profile,
  profile_deep_link: SCOPE.profile,
  is_verified: SCOPE.profile,
  username: SCOPE.profile,
  follower_count: SCOPE.stats,
  following_count: SCOPE.stats,
  likes_count: SCOPE.stats,
  video_count: SCOPE.stats,
};

/** The `fields` of a user info request, refused when unknown or beyond the token's scopes. */
function userFields(request: FastifyRequest, who: Caller): string[] {
  const fields = requiredParam(request, tiktok, 'fields')
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '');
  const unknown = fields.find((f) => USER_FIELDS[f] === undefined);
  if (unknown !== undefined) throw tiktok.badParameter(`Invalid field: ${unknown}`);
  for (const field of fields) requireScope(who, call, USER_FIELDS[field] as string);
  return fields;
}

function userValues(who: Caller): Record<string, unknown> {
  const a = who.account;
  return {
    open_id: a.id,
    union_id: a.id,
    avatar_url: a.avatarUrl,
    avatar_url_100: a.avatarUrl,
    avatar_large_url: a.avatarUrl,
    display_name: a.name,
    bio_description: '',
    profile_deep_link: `https://www.tiktok.com/@${encodeURIComponent(a.username)}`,
    is_verified: false,
    username: a.username,
    follower_count: a.followersCount,
    following_count: 0,
    likes_count: 0,
    video_count: 0,
  };
}

export function userRoutes(app: FastifyInstance, store: Store): void {
  app.get('/v2/user/info/', async (request) => {
    const who = await caller(store, request, call);
    const fields = userFields(request, who);
    const values = userValues(who);
    return ok(store, { user: Object.fromEntries(fields.map((f) => [f, values[f]])) });
  });
}
