import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { deferCompile } from './deferred-compile.ts';

/**
 * Query strings, path parameters and headers arrive as text, so their schemas coerce
 * ("50" -> 50). JSON bodies do not: `{"name": 123}` is an error, not the name "123".
 * Unknown body fields are errors too (schemas say `additionalProperties: false`), so a
 * misspelt field is reported instead of silently ignored.
 */
function makeAjv(coerceTypes: Options['coerceTypes']): Ajv {
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    allErrors: true,
    strict: false,
  });
  addFormats.default(ajv);
  return ajv;
}

/**
 * What no string the API takes may hold, wherever it is (docs/api-conventions.md, "Text").
 * PostgreSQL cannot store NUL in text and fails the whole query; an unpaired surrogate is
 * not a character at all and would be stored as U+FFFD, silently changing what was sent.
 */
const UNPAIRED_SURROGATE = /\p{Cs}/u;
/** Any surrogate code unit, paired or not: most text has none, and this is cheaper to rule out. */
const ANY_SURROGATE = /[\uD800-\uDFFF]/;

export function textProblem(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  // With the u flag a surrogate pair is one code point; only an unpaired half is in Cs.
  if (ANY_SURROGATE.test(value) && UNPAIRED_SURROGATE.test(value)) {
    return 'must not contain an unpaired UTF-16 surrogate (it is not a character)';
  }
  return undefined;
}

function pointerSegment(key: string | number): string {
  return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A value still to look at, and where it is: its parent's place and its key (null at the root). */
interface Place {
  value: unknown;
  parent: Place | null;
  key: string | number | null;
}

/** The JSON pointer of a place, built only for a string that breaks the rule. */
function pointerOf(place: Place | null): string {
  const segments: string[] = [];
  for (let at = place; at !== null && at.key !== null; at = at.parent) segments.push(pointerSegment(at.key));
  return segments.length === 0 ? '' : `/${segments.reverse().join('/')}`;
}

function textError(instancePath: string, message: string): ErrorObject {
  return { instancePath, schemaPath: '#/text', keyword: 'text', params: {}, message };
}

/**
 * Every string in `data` (keys too) that breaks the text rule, as Ajv-style errors. A loop
 * with its own stack, not recursion: a body may be nested tens of thousands of levels deep,
 * and the schema check that would refuse it has not necessarily stopped before this runs.
 * It runs on every part of every request, so a path is only spelt out for a string it reports.
 */
export function textErrors(data: unknown): ErrorObject[] {
  const found: ErrorObject[] = [];
  const stack: Place[] = [{ value: data, parent: null, key: null }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value } = next;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) found.push(textError(pointerOf(next), problem));
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i -= 1) stack.push({ value: value[i], parent: next, key: i });
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i -= 1) {
        const key = keys[i] as string;
        const problem = textProblem(key);
        if (problem) found.push(textError(pointerOf(next), `has a field name that ${problem}`));
        stack.push({ value: (value as Record<string, unknown>)[key], parent: next, key });
      }
    }
  }
  return found;
}

/**
 * Ajv validators for route schemas, plus the text rule for every string of every part a
 * route validates (path, query, headers, body), so no route can forget it.
 */
export function makeValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const forText = makeAjv('array');
  const forJson = makeAjv(false);
  return ({ schema, httpPart, contentType }) => {
    // A multipart body is a stream the route reads part by part itself (media uploads): the
    // schema documents its parts, and nothing has been parsed yet to check against it.
    if (httpPart === 'body' && contentType === 'multipart/form-data') return () => true;
    const ajv = httpPart === 'body' ? forJson : forText;
    const checker = deferCompile(() => ajv.compile(schema as object));
    const validate = (data: unknown, context?: Parameters<ValidateFunction>[1]): boolean => {
      const check = checker();
      const valid = context ? check(data, context) : check(data);
      // Ajv may have replaced the root (coercion, defaults) through the context.
      const checked: unknown = context ? context.parentData[context.parentDataProperty] : data;
      const text = textErrors(checked);
      const errors = valid ? text : [...(check.errors ?? []), ...text];
      validate.errors = errors.length > 0 ? errors : null;
      return errors.length === 0;
    };
    validate.errors = null as ErrorObject[] | null;
    // Fastify passes the context (so Ajv can coerce a root value) only to a function that has
    // this; it asks at each request, so the compile can wait for the first.
    Object.defineProperty(validate, 'schemaEnv', { get: () => checker().schemaEnv });
    return validate;
  };
}
