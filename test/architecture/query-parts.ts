import type { SQLWrapper } from 'drizzle-orm';

/**
 * A module reads and writes only its own tables, so its public entry hands out nothing that
 * can go into another module's query: no table, no column, no SQL, and no function answering
 * one. Everything drizzle can build a query from (tables, columns, SQL, subqueries, views,
 * query builders) has `getSQL()`: it is an `SQLWrapper`. Data (rows, ids, states) is not.
 * A type, so that tsc (`npm run check`) enforces it: dependency-cruiser sees which files
 * import which, not what a function returns.
 */

/** How deep into objects, arrays, promises and return values an export is searched. */
type Deeper = [never, 0, 1, 2, 3, 4, 5];
type Data = string | number | boolean | bigint | symbol | null | undefined | Date;

/** true (or boolean) when a value of type T is, holds or answers something drizzle can query with. */
type CarriesQueryPart<T, Depth extends number = 5> = [Depth] extends [never]
  ? false
  : T extends SQLWrapper
    ? true
    : T extends Data
      ? false
      : T extends PromiseLike<infer Value>
        ? CarriesQueryPart<Value, Deeper[Depth]>
        : T extends (...args: never[]) => infer Result
          ? CarriesQueryPart<Result, Deeper[Depth]>
          : T extends readonly (infer Element)[]
            ? CarriesQueryPart<Element, Deeper[Depth]>
            : T extends object
              ? { [K in keyof T]-?: CarriesQueryPart<T[K], Deeper[Depth]> }[keyof T]
              : false;

/** The names of a module's exports (`typeof import(<its index.ts>)`) that hand out a query part. */
export type QueryPartExports<Entry> = {
  [K in keyof Entry]: true extends CarriesQueryPart<Entry[K]> ? K : never;
}[keyof Entry];

/**
 * `true` when the entry hands out no query part; else a type that names the module and those
 * exports, which `Holds` rejects: tsc fails and says which.
 */
export type HandsOutNoQueryPart<Module extends string, Entry> =
  QueryPartExports<Entry> extends infer Names
    ? [Names] extends [never]
      ? true
      : { module: Module; handsOutQueryParts: `${Names & string}` }
    : never;

/** Compiles only when given `true`. */
export type Holds<Check extends true> = Check;
