import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

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

export function makeValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const forText = makeAjv('array');
  const forJson = makeAjv(false);
  return ({ schema, httpPart }) => (httpPart === 'body' ? forJson : forText).compile(schema as object);
}
