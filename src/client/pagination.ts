import type { Client } from 'openapi-fetch';
import { errorFromAnswer } from './errors.ts';
import type { paths } from './openapi-types.ts';

/** A page as the list endpoints answer it (docs/api-conventions.md, "Pagination"). */
interface Page {
  data: unknown[];
  next_cursor: string | null;
}

/** The paths whose GET answers a page, `{ data: [...], next_cursor }`: the list endpoints. */
export type ListPath = {
  [P in keyof paths]: paths[P] extends { get: { responses: { 200: { content: { 'application/json': Page } } } } }
    ? P
    : never;
}[keyof paths];

type ListOperation<P extends ListPath> = paths[P]['get'];

/** One item of the list at `P` (a `Profile` for `/v1/profiles`). */
export type ListItem<P extends ListPath> =
  ListOperation<P>['responses'][200]['content']['application/json']['data'][number];

/** The GET's parameters but the cursor, which the iterator sets: `path`, `query` (filters, `limit`), `header`. */
export type ListParameters<P extends ListPath> = Omit<ListOperation<P>['parameters'], 'query'> & {
  query?: Omit<NonNullable<ListOperation<P>['parameters']['query']>, 'cursor'>;
};

export interface PaginateOptions<P extends ListPath> {
  params: ListParameters<P>;
  /** Stops the iteration: the request in flight (or a wait before a retry) fails with its reason. */
  signal?: AbortSignal;
}

/** The options, required only when the path has parameters that are (`{id}`). */
type PaginateArguments<P extends ListPath> =
  Record<string, never> extends ListParameters<P>
    ? [options?: Partial<PaginateOptions<P>>]
    : [options: PaginateOptions<P>];

type GetPage = (
  path: string,
  init: { params: Record<string, unknown>; signal?: AbortSignal },
) => Promise<{ data?: Page; error?: unknown; response: Response }>;

/**
 * Every item of a list endpoint, oldest first (deliveries newest first), fetched a page at a
 * time as the loop asks for them, following `next_cursor` until it is null:
 *
 *     for await (const profile of paginate(client, '/v1/profiles', { params: { query: { limit: 100 } } })) ...
 *
 * A page answered with an error throws a `SwitchboardError` with the API's `code` and `message`.
 * Items created while the loop runs turn up on a later page; none is repeated or skipped.
 */
export async function* paginate<P extends ListPath>(
  client: Client<paths>,
  path: P,
  ...[options]: PaginateArguments<P>
): AsyncGenerator<ListItem<P>, void, undefined> {
  // Typed by the path in the signature above; inside, one shape serves every list.
  const get = client.GET as unknown as GetPage;
  const params = (options?.params ?? {}) as { query?: Record<string, unknown> };
  let cursor: string | null = null;
  do {
    const query: Record<string, unknown> = cursor === null ? { ...params.query } : { ...params.query, cursor };
    const { data, error, response } = await get(path, {
      params: { ...params, query },
      ...(options?.signal === undefined ? {} : { signal: options.signal }),
    });
    if (data === undefined) throw errorFromAnswer(response, error);
    for (const item of data.data) yield item as ListItem<P>;
    cursor = data.next_cursor;
  } while (cursor !== null);
}
