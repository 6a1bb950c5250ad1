import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Db } from '../../db/connection.ts';
import { decodeCursor, toPage } from '../../http/pagination.ts';
import {
  AUTHENTICATED_ERRORS,
  errorResponses,
  IdempotentPostHeaders,
  ListOf,
  ListQuery,
  ProfileHeader,
} from '../../http/schemas.ts';
import {
  AccountJson as Account,
  AccountStatusValue,
  AccountParams as Params,
  PlatformValue,
  renderAccount,
} from './json.ts';
import { type PostsAtRisk, postsAtRisk } from './posts-at-risk.ts';
import { disconnectAccount, getAccount, listAccounts, moveAccount } from './service.ts';
import type { Account as AccountRow } from './tables.ts';

const tags = ['Accounts'];
const errorsOf = (...extra: number[]) => errorResponses(...AUTHENTICATED_ERRORS, ...extra);

/** What the end of access of each account of `rows` that is not connected puts at risk. */
async function risksOf(db: Db, rows: readonly AccountRow[]): Promise<Map<string, PostsAtRisk>> {
  const ended = rows.filter((a) => a.status !== 'connected').map((a) => a.id);
  return ended.length === 0 ? new Map() : await postsAtRisk(db, ended);
}

/** An account as the API shows it, with what its end of access puts at risk. */
async function withRisk(db: Db, account: AccountRow) {
  return renderAccount(account, (await risksOf(db, [account])).get(account.id) ?? null);
}

export function accountRoutes({ db }: { db: Db }): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/accounts',
      {
        schema: {
          tags,
          summary: 'List connected accounts',
          description:
            "Oldest first. An owner key sees every profile's accounts, or only one profile's with a Service-Profile header; a profile key sees its profile's.",
          headers: ProfileHeader,
          querystring: Type.Object(
            {
              ...ListQuery,
              platform: Type.Optional(PlatformValue),
              status: Type.Optional(AccountStatusValue),
            },
            { additionalProperties: false },
          ),
          response: { 200: ListOf(Account), ...errorsOf() },
        },
      },
      async (request) => {
        const limit = request.query.limit ?? 50;
        const rows = await listAccounts(db, request.scope, {
          platform: request.query.platform,
          status: request.query.status,
          limit,
          after: decodeCursor(request.query.cursor, 'account'),
        });
        const risks = await risksOf(db, rows);
        return toPage(rows, limit, (a) => renderAccount(a, risks.get(a.id) ?? null));
      },
    );

    app.get(
      '/v1/accounts/:id',
      {
        schema: {
          tags,
          summary: 'Get an account',
          description: '404 `account_not_found` for an account the caller does not see.',
          headers: ProfileHeader,
          params: Params,
          response: { 200: Account, ...errorsOf() },
        },
      },
      async (request) => withRisk(db, await getAccount(db, request.scope, request.params.id)),
    );

    app.delete(
      '/v1/accounts/:id',
      {
        schema: {
          tags,
          summary: 'Disconnect an account',
          description:
            'The account becomes `disconnected` and its platform tokens are deleted; `account.disconnected` is sent. Answers 200 with the account, which stays listed and can be reconnected through a connect link. Disconnecting it again changes nothing and sends no event.',
          headers: ProfileHeader,
          params: Params,
          response: { 200: Account, ...errorsOf() },
        },
      },
      async (request) => withRisk(db, await disconnectAccount(db, request.scope, request.params.id)),
    );

    app.post(
      '/v1/accounts/:id/move',
      {
        config: { ownerOnly: true },
        schema: {
          tags,
          summary: 'Move an account to another profile',
          description:
            "Answers 200 with the account in its new profile. Comments and insights follow the account; posts already created stay in their profile. 409 `account_has_scheduled_posts` while the account has posts waiting to be published. Moving it to the profile it is in changes nothing. With a Service-Profile header, only that profile's accounts can be moved.",
          headers: IdempotentPostHeaders,
          params: Params,
          body: Type.Object(
            {
              profile_id: Type.String({
                minLength: 1,
                maxLength: 255,
                description: 'The profile to move the account to: its id or external_id.',
              }),
            },
            { additionalProperties: false },
          ),
          response: { 200: Account, ...errorsOf(409, 413, 415) },
        },
      },
      async (request) => withRisk(db, await moveAccount(db, request.scope, request.params.id, request.body.profile_id)),
    );
  };
}
