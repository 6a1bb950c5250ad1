import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.ts';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * JSON bodies are parsed from their bytes, and bytes that are not UTF-8 are refused as
 * `400 invalid_json`. Fastify's own parser decodes the body first, replacing each such sequence
 * (`FF FE`, a surrogate written out as `ED A0 80`, an overlong form) with U+FFFD, so text the
 * client never sent would be stored; the text rule refuses the escaped `\ud800` for the same
 * reason (docs/api-conventions.md, Text). What is UTF-8 goes on to Fastify's parser as before.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = UTF8.decode(body as Buffer);
    } catch {
      done(new ApiError(400, 'invalid_json', 'The body is not valid JSON: it is not UTF-8 text.'), undefined);
      return;
    }
    parse(request, text, done);
  });
}
