/**
 * Graph's multiple-id read, `GET /{version}/?ids=a,b,c&fields=...`: "a single GET request that
 * retrieves multiple nodes", answered as one object keyed by each id asked, each value what
 * `GET /{id}` with the same fields answers (Using the Graph API, "Multiple ID Read Requests").
 * One call, counted once, however many ids it names.
 *
 * What the page leaves out, imitated from what Graph is reported to answer (docs/platforms.md,
 * "Reading a comment's time"): at most IDS_PER_READ ids; an id the token cannot read fails the
 * whole request with code 803, "(#803) Some of the aliases you requested do not exist", naming
 * every such id.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { eachLimited } from '../../each-limited.ts';
import { SandboxAnswer } from '../answers.ts';
import { type Caller, type CallOptions, caller } from '../caller.ts';
import { param } from '../kit.ts';
import type { Store } from '../platform.ts';
import { graph, graphAnswer } from './errors.ts';

/** The most ids one read may name ("max. 50 ids per request" since Graph v2.2). */
const IDS_PER_READ = 50;

/**
 * The ids read at once, each one statement (Instagram's) or two to three (Facebook's): a read of
 * 50 answers in about the time Graph takes, not in one statement's turn after another. The
 * answer does not depend on which read ends first: each id's object in the order asked, the
 * missing ids in that order, and the first other refusal in that order.
 */
const READS_AT_ONCE = 8;

/** What `GET /{id}` answers the caller for `id` (the request gives the fields); throws Graph's refusal. */
export type ObjectReader = (who: Caller, id: string, request: FastifyRequest) => Promise<Record<string, unknown>>;

/** Graph's "does not exist" refusal of one object (code 100, subcode 33). */
function isNotFound(error: unknown): boolean {
  if (!(error instanceof SandboxAnswer)) return false;
  const body = (error.body as { error?: { code?: unknown; error_subcode?: unknown } }).error;
  return body?.code === 100 && body.error_subcode === 33;
}

export function multipleIdRoutes(app: FastifyInstance, store: Store, call: CallOptions, read: ObjectReader): void {
  app.get('/:version/', async (request) => {
    const who = await caller(store, request, call);
    const ids = [
      ...new Set(
        (param(request, 'ids') ?? '')
          .split(',')
          .map((id) => id.trim())
          .filter((id) => id !== ''),
      ),
    ];
    if (ids.length === 0) throw graph.badParameter('The parameter ids is required');
    if (ids.length > IDS_PER_READ) {
      throw graph.badParameter(`Too many IDs. Maximum: ${IDS_PER_READ}. Provided: ${ids.length}.`);
    }
    const reads = await eachLimited(ids, READS_AT_ONCE, async (id) => {
      try {
        return { id, object: await read(who, id, request) };
      } catch (error) {
        return { id, error };
      }
    });
    const answer: Record<string, unknown> = {};
    const missing: string[] = [];
    for (const one of reads) {
      if ('object' in one) answer[one.id] = one.object;
      else if (isNotFound(one.error)) missing.push(one.id);
      else throw one.error;
    }
    if (missing.length > 0) {
      throw graphAnswer(404, 803, `(#803) Some of the aliases you requested do not exist: ${missing.join(',')}`);
    }
    return answer;
  });
}
