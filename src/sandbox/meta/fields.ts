/** What Graph paths and fields say: the fields asked, Graph's times. */
import type { FastifyRequest } from 'fastify';
import { param } from '../kit.ts';

/** `fields=a,b,c{x,y}` as top-level names. */
export function requestedFields(request: FastifyRequest, defaults: string[]): Set<string> {
  const raw = param(request, 'fields');
  if (raw === undefined || raw.trim() === '') return new Set(defaults);
  const names: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of raw) {
    if (char === '{') depth += 1;
    if (char === '}') depth -= 1;
    if (char === ',' && depth === 0) {
      names.push(current);
      current = '';
    } else if (depth === 0 && char !== '}') current += char;
  }
  names.push(current);
  return new Set(names.map((n) => n.trim()).filter((n) => n !== ''));
}

/** Only the requested fields (Graph always answers `id`). */
export function pick(values: Record<string, unknown>, fields: Set<string>): Record<string, unknown> {
  const out: Record<string, unknown> = { id: values.id };
  for (const name of fields) if (name in values && values[name] !== undefined) out[name] = values[name];
  return out;
}

/** A Graph timestamp: ISO 8601 in UTC without milliseconds, offset written `+0000`. */
export function graphTime(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, '+0000');
}

/** Unix seconds, as Graph's notices give times. */
export function unixSeconds(at: Date): number {
  return Math.floor(at.getTime() / 1000);
}
