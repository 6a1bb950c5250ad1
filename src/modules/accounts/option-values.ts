/**
 * The values a post option takes for one account where they are the account's own on its platform
 * (a Pinterest account's boards for `board_id`), read from the platform when asked: the platform's
 * definition names such options (`listedOptions`), its adapter lists them (`optionValues`).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { BaseLogger } from 'pino';
import { Type } from 'typebox';
import type { Db } from '../../db/connection.ts';
import { ApiError } from '../../http/errors.ts';
import { AUTHENTICATED_ERRORS, errorResponses, ListOf, ProfileHeader } from '../../http/schemas.ts';
import {
  type AccountCredentials,
  type OptionValueList,
  type Platform,
  type PlatformAdapter,
  type PlatformSet,
  platformInfo,
} from '../../platforms/index.ts';
import { actAsAccountAnswering } from './acting.ts';
import { getAccount } from './service.ts';

export interface OptionValueDeps {
  db: Db;
  platforms: () => PlatformSet;
  secretKey: Buffer;
  log: Pick<BaseLogger, 'warn'>;
}

const OptionValueJson = Type.Object(
  {
    value: Type.String({ description: 'What a post sets the option to (`platforms.<platform>.<option>`).' }),
    label: Type.String({ description: "What a person reads for it (a board's name)." }),
  },
  { additionalProperties: false },
);

const Params = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100, description: 'Account id, `acc_...`.' }),
  option: Type.String({ minLength: 1, maxLength: 100, description: "The option's name (Pinterest: `board_id`)." }),
});

function isListed(platform: Platform, option: string): boolean {
  return Object.hasOwn(platformInfo(platform).publishing.listedOptions ?? {}, option);
}

/** The adapter's read of the option's values; a listed option without one is a platform written wrong. */
function listerOf(
  adapter: PlatformAdapter,
  option: string,
): (credentials: AccountCredentials) => Promise<OptionValueList> {
  const list = adapter.publishing.optionValues?.[option];
  if (list === undefined) throw new Error(`${adapter.platform} lists ${option} but its adapter reads no values of it`);
  return list;
}

export function optionValueRoutes(deps: OptionValueDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/accounts/:id/options/:option',
      {
        schema: {
          tags: ['Accounts'],
          summary: 'The values an option takes for an account',
          description:
            "The values a post option takes for this account where they are the account's own on its platform, read from the platform now (GET /v1/platforms names them in `publishing.listed_options`: Pinterest's `board_id`, the account's boards), each `value` with a `label` to show; one page (`next_cursor` null). Errors: 404 `account_not_found`, 404 `option_not_listed` (the platform lists no values of that option), 422 `account_not_connected`, and the platform's refusal as for a reply (`permission_missing`, `platform_rate_limited`, `platform_error`).",
          headers: ProfileHeader,
          params: Params,
          response: { 200: ListOf(OptionValueJson), ...errorResponses(...AUTHENTICATED_ERRORS, 422, 429, 502) },
        },
      },
      async (request) => {
        const account = await getAccount(deps.db, request.scope, request.params.id);
        const { option } = request.params;
        if (!isListed(account.platform, option)) {
          throw new ApiError(
            404,
            'option_not_listed',
            `${platformInfo(account.platform).label} lists no values of ${JSON.stringify(option)} for an account (GET /v1/platforms: publishing.listed_options).`,
          );
        }
        if (account.status !== 'connected') {
          throw new ApiError(422, 'account_not_connected', `The account is ${account.status}; reconnect it.`);
        }
        const list = await actAsAccountAnswering(
          { db: deps.db, secretKey: deps.secretKey, platforms: deps.platforms(), log: deps.log },
          account,
          "the platform refused to list an option's values",
          async (credentials, adapter) => await listerOf(adapter, option)(credentials),
        );
        return { data: list.values.map((v) => ({ value: v.value, label: v.label })), next_cursor: null };
      },
    );
  };
}
