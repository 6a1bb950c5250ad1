/**
 * node-postgres (8.23) builds, when a result's columns arrive, an empty row keyed by their names,
 * which only rows made as objects start from: a null-prototype object filled one key at a time
 * and then copied, about 10 µs at thirty columns, at every call of every statement. Drizzle's
 * selects and returnings make their rows as arrays and never use it, and a statement that answers
 * no rows needs none (node-postgres#3055). Here it is built at a result's first row made as an
 * object, as pg builds it; a result's parsers are what they were.
 */
import { createRequire } from 'node:module';

/** The parts of pg's Result (pg/lib/result.js) this reads and writes. */
interface ResultInternals {
  fields: readonly FieldDescription[];
  rowAsArray: boolean;
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

// The very module pg's queries make their results with (pg is loaded from node_modules, never bundled).
const pgResult = createRequire(import.meta.url)('pg/lib/result.js') as { prototype: ResultInternals };
const prototype = pgResult.prototype;
const built = Symbol('the empty row is built lazily');

/** Installs the lazy empty row in pg's Result, once per process; pg as it is where its Result is not as read above. */
export function leanResults(): void {
  const state = prototype as ResultInternals & { [built]?: true };
  if (state[built] || typeof prototype.addFields !== 'function' || typeof prototype.parseRow !== 'function') return;
  const { addFields, parseRow } = prototype;
  prototype.addFields = function (this: ResultInternals, fields) {
    const types = this._types;
    // Without the client's types (a result made outside a client), pg's own defaults are needed: its way.
    if (types === undefined) return addFields.call(this, fields);
    this.fields = fields;
    if (fields.length > 0) this._parsers = fields.map((f) => types.getTypeParser(f.dataTypeID, f.format || 'text'));
    this._prebuiltEmptyResultObject = null;
  };
  prototype.parseRow = function (this: ResultInternals, row) {
    if (this._prebuiltEmptyResultObject === null && this.fields.length > 0) {
      const empty: Record<string, null> = Object.create(null);
      for (const field of this.fields) empty[field.name] = null;
      this._prebuiltEmptyResultObject = { ...empty };
    }
    return parseRow.call(this, row);
  };
  state[built] = true;
}
