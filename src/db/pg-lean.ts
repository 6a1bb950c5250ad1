/**
 * Two costs node-postgres (8.23) adds to every statement, which the CPU profile of a worker
 * publishing showed at about 180 and 100 µs a target, taken out with the results unchanged:
 *
 * - when a result's columns arrive, it builds an empty row keyed by their names, which only rows
 *   made as objects start from: a null-prototype object filled one key at a time and then copied,
 *   about 10 µs at thirty columns. Drizzle's selects and returnings make their rows as arrays and
 *   never use it, and a result with no rows needs none (node-postgres#3055). It is built here at a
 *   result's first row made as an object, as pg builds it.
 * - it copies each query's configuration (so as not to change the caller's object) with its
 *   properties' descriptors, about 3 µs a query. A configuration that is a plain object of plain
 *   values, as every one the service, Drizzle and graphile-worker pass, is copied here with a
 *   spread (under 1 µs with the check), which is the same copy for it; any other, as pg copies it.
 *
 * pg is loaded from node_modules, never bundled, so these are the very modules its queries use.
 */
import { createRequire } from 'node:module';

/** The parts of pg's Result (pg/lib/result.js) this reads and writes. */
interface ResultInternals {
  fields: readonly FieldDescription[];
  _parsers: ((value: unknown) => unknown)[] | undefined;
  _types: { getTypeParser(oid: number, format: string): (value: unknown) => unknown } | undefined;
  _prebuiltEmptyResultObject: Record<string, null> | null;
  addFields(fields: readonly FieldDescription[]): void;
  parseRow(row: readonly unknown[]): unknown;
}

interface FieldDescription {
  name: string;
  dataTypeID: number;
  format?: string;
}

type QueryConfig = Record<string, unknown>;

/** pg/lib/utils.js's `normalizeQueryConfig`: a query's configuration, copied, with the values and callback given beside it. */
type Normalize = (config: string | QueryConfig, values?: unknown, callback?: unknown) => QueryConfig;

const fromPg = createRequire(import.meta.url);
const resultPrototype = (fromPg('pg/lib/result.js') as { prototype: ResultInternals }).prototype;
const pgUtils = fromPg('pg/lib/utils.js') as { normalizeQueryConfig: Normalize };

let installed = false;

/** Installs both in pg, once per process; each is left out where pg's code is not as read above. */
export function leanPg(): void {
  if (installed) return;
  installed = true;
  if (typeof resultPrototype.addFields === 'function' && typeof resultPrototype.parseRow === 'function') {
    lazyEmptyRow(resultPrototype);
  }
  if (typeof pgUtils.normalizeQueryConfig === 'function') plainConfigCopy(pgUtils);
}

function lazyEmptyRow(prototype: ResultInternals): void {
  const { addFields, parseRow } = prototype;
  prototype.addFields = function (this: ResultInternals, fields) {
    const types = this._types;
    // Without the client's types (a result made outside a client), pg's own defaults are needed: its way.
    if (!types) return addFields.call(this, fields);
    this.fields = fields;
    if (fields.length > 0) this._parsers = fields.map((f) => types.getTypeParser(f.dataTypeID, f.format || 'text'));
    this._prebuiltEmptyResultObject = null;
  };
  // A result made for rows as arrays has its own parseRow, which reads only the parsers.
  prototype.parseRow = function (this: ResultInternals, row) {
    if (this._prebuiltEmptyResultObject === null && this.fields.length > 0) {
      const empty: Record<string, null> = Object.create(null);
      for (const field of this.fields) empty[field.name] = null;
      this._prebuiltEmptyResultObject = { ...empty };
    }
    return parseRow.call(this, row);
  };
}

/**
 * Whether a spread copies the configuration as pg's copy of its descriptors does: a plain object
 * whose own properties are all enumerable, writable values (not a frozen one, nor one with a
 * hidden or computed property).
 */
function isPlainData(config: unknown): config is QueryConfig {
  if (config === null || typeof config !== 'object' || Object.getPrototypeOf(config) !== Object.prototype) return false;
  const keys = Object.keys(config);
  if (keys.length !== Reflect.ownKeys(config).length) return false;
  return keys.every((key) => Object.getOwnPropertyDescriptor(config, key)?.writable === true);
}

function plainConfigCopy(utils: { normalizeQueryConfig: Normalize }): void {
  const normalize = utils.normalizeQueryConfig;
  utils.normalizeQueryConfig = (config, values, callback) => {
    if (!isPlainData(config)) return normalize(config, values, callback);
    // What pg does with the copy: values given beside the configuration replace its own, or are the callback.
    const copy: QueryConfig = { ...config };
    if (values) {
      if (typeof values === 'function') copy.callback = values;
      else copy.values = values;
    }
    if (callback) copy.callback = callback;
    return copy;
  };
}
