/**
 * The values a post option takes for one account where they are the account's own on its platform
 * (a Pinterest account's boards for `board_id`), read from the platform when asked: the platform's
 * definition names such options (`listedOptions`), its adapter lists them (`optionValues`). The
 * route answers them to a person choosing one; the posts module reads them to check the value a
 * post names (readListedValues).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { BaseLogger } from 'pino';
import { Type } from 'typebox';
import type { Db } from '../../db/connection.ts';
import { eachLimited } from '../../each-limited.ts';
import { ApiError } from '../../http/errors.ts';
import { AUTHENTICATED_ERRORS, errorResponses, ListOf, ProfileHeader } from '../../http/schemas.ts';
import type { Scope } from '../../http/scope.ts';
import {
  type AccountCredentials,
  type OptionValueList,
  type Platform,
  type PlatformAdapter,
  type PlatformError,
  type PlatformSet,
  platformInfo,
} from '../../platforms/index.ts';
import { actAsAccountAnswering, actAsAccountNoting } from './acting.ts';
import { visibleAccounts } from './readers.ts';
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

/** What reading an account's values of a listed option came to. */
export type ListedValues =
  | { read: true; values: ReadonlySet<string>; complete: boolean }
  | { read: false; refusal: PlatformError };

export interface ListedValueDeps {
  db: Db;
  platforms: PlatformSet;
  secretKey: Buffer;
}

/** Reads made at once: each is calls to a platform as one account, while a request waits. */
const READS_AT_ONCE = 4;

/**
 * The values of listed options, read from the platform now as GET /v1/accounts/{id}/options/{option}
 * reads them: for each account of `accountIds` the caller sees and that is connected, the options
 * `optionsOf` names for its platform among those its definition lists, by account id, then
 * option. A platform's refusal is noted on the account as for any call made as it (an ended
 * token makes it `expired`, a missing permission is forgotten from its permissions) and answered
 * as `read: false`, for the caller to decide what an unread list means to it.
 */
export async function readListedValues(
  deps: ListedValueDeps,
  scope: Scope,
  accountIds: readonly string[],
  optionsOf: (platform: Platform) => readonly string[],
): Promise<Map<string, Map<string, ListedValues>>> {
  const reads = (await visibleAccounts(deps.db, scope, { ids: accountIds }))
    .filter((account) => account.status === 'connected')
    .flatMap((account) =>
      optionsOf(account.platform)
        .filter((option) => isListed(account.platform, option))
        .map((option) => ({ account, option })),
    );
  const answers = await eachLimited(reads, READS_AT_ONCE, async ({ account, option }) => {
    const answer = await actAsAccountNoting(deps, account, (credentials, adapter) =>
      listerOf(adapter, option)(credentials),
    );
    return 'refused' in answer
      ? { read: false as const, refusal: answer.refused }
      : {
          read: true as const,
          values: new Set(answer.done.values.map((v) => v.value)),
          complete: answer.done.complete,
        };
  });
  const found = new Map<string, Map<string, ListedValues>>();
  reads.forEach(({ account, option }, i) => {
    const byOption = found.get(account.id) ?? new Map<string, ListedValues>();
    byOption.set(option, answers[i] as ListedValues);
    found.set(account.id, byOption);
  });
  return found;
}
