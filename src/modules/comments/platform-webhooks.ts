/**
 * Where Instagram, Threads and Facebook send their webhooks (comments): subscribe the app
 * to `PUBLIC_URL/platform-webhooks/<platform>` in each app's dashboard, with
 * PLATFORM_WEBHOOK_VERIFY_TOKEN as the verify token. Google Business Profile's review
 * notifications come here too, pushed by a Cloud Pub/Sub subscription with its OIDC token. Not
 * part of the API: only the platforms call it. A notice is verified (a signature of the raw
 * body, or a push's token) and answered once queued; storing it is a job, and the same notice
 * twice is still one comment.
 */

import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { appendTo } from '../../append-to.ts';
import type { Db } from '../../db/connection.ts';
import { GroupCommit } from '../../db/group-commit.ts';
import { ApiError } from '../../http/errors.ts';
import { enqueue } from '../../jobs/queue.ts';
import { sharedCounter } from '../../metrics/shared.ts';
import {
  type CommentNotice,
  commentsOf,
  isPlatform,
  type Platform,
  PlatformError,
  type PlatformSet,
  platformInfo,
} from '../../platforms/index.ts';
import { type NoticeComment, toNoticeComment } from './intake.ts';

const noticesMetric = sharedCounter({
  name: 'switchboard_comment_notices_total',
  help: "Comments the platforms' webhooks told of (genuine notices, well-formed ids), by platform.",
  labelNames: ['platform'],
});

export interface PlatformWebhookDeps {
  db: Db;
  platforms: () => PlatformSet;
  /** Unset: every subscription handshake is refused. */
  verifyToken: string | undefined;
}

/** What a platform id looks like (digits, or Facebook's `<page>_<post>`): anything else is not stored. */
const PLATFORM_ID = /^[\x21-\x7e]{1,200}$/;

/** At most this many comments go into one job; more are split. */
const COMMENTS_PER_JOB = 100;

/**
 * How long after the first waiting notice came their write starts: a job costs about as much for
 * one comment as for fifty (its run, a read of the comments' times per account, the statements
 * that store them), so the notices of a burst share jobs, a job per 20 ms rather than a notice.
 * No longer: a notice is answered only after its gathering and its write, and a platform that
 * keeps one notice a connection in flight sends no faster than its connections allow that wait
 * (64 connections at 1,000 a second: 64 ms, where a write under load takes 20 ms or more).
 */
const NOTICE_GATHER_MS = 20;

/**
 * How long without a new notice ends a gathering sooner: a platform that sends a notice only
 * once an earlier one is answered, over a few connections, would otherwise send at most its
 * connections' worth every NOTICE_GATHER_MS and the write (4 connections, a 20 ms write: 100 a second).
 * Long enough that a steady stream's notices, a millisecond or so apart, still share a job when
 * the machine is busy and they come in clumps.
 */
const NOTICE_QUIET_MS = 10;

function sameText(a: string, b: string): boolean {
  // Hashing first gives equal lengths, so the comparison takes the same time whatever the guess.
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

function commentPlatform(value: string): Platform {
  if (!isPlatform(value) || platformInfo(value).comments === null) {
    throw new ApiError(404, 'not_found', `No platform webhooks for ${JSON.stringify(value)}.`);
  }
  return value;
}

/**
 * Queues notices' comments for storing: the notices that arrive within NOTICE_GATHER_MS of the
 * first one waiting, until NOTICE_QUIET_MS pass without one (or while earlier writes are under
 * way), go together, in one transaction and as few jobs as their platforms and size allow; 500
 * waiting notices are written at once. A notice is answered only once its comments are committed.
 */
function noticeQueue(db: Db): GroupCommit<{ platform: Platform; comments: NoticeComment[] }, void> {
  return new GroupCommit<{ platform: Platform; comments: NoticeComment[] }, void>(
    async (notices) => {
      const byPlatform = new Map<Platform, NoticeComment[]>();
      for (const { platform, comments } of notices) appendTo(byPlatform, platform, ...comments);
      await db.transaction(async (tx) => {
        for (const [platform, comments] of byPlatform) {
          for (let i = 0; i < comments.length; i += COMMENTS_PER_JOB) {
            await enqueue(tx, 'ingest_comment_notices', {
              platform,
              comments: comments.slice(i, i + COMMENTS_PER_JOB),
            });
          }
        }
      });
      return notices.map(() => undefined);
    },
    {
      // A notice is checked before it is queued, so a failed write is the database's: it fails
      // every notice of it at once (each answered 503, and sent again by its platform).
      eachAgain: false,
      gatherMs: NOTICE_GATHER_MS,
      quietMs: NOTICE_QUIET_MS,
    },
  );
}

export function platformWebhookRoutes(deps: PlatformWebhookDeps): FastifyPluginAsync {
  const queued = noticeQueue(deps.db);
  return async (app) => {
    // Signatures cover the bytes as sent, so the body is kept as text, whatever its type.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

    app.get<{ Params: { platform: string }; Querystring: Record<string, string | string[] | undefined> }>(
      '/platform-webhooks/:platform',
      { schema: { hide: true } },
      async (request, reply) => {
        const platform = commentPlatform(request.params.platform);
        const one = (name: string) => {
          const value = request.query[name];
          return typeof value === 'string' ? value : undefined;
        };
        const token = one('hub.verify_token');
        const challenge = one('hub.challenge');
        if (one('hub.mode') !== 'subscribe' || challenge === undefined) {
          throw new ApiError(
            400,
            'invalid_request',
            'Expected hub.mode=subscribe with hub.challenge and hub.verify_token.',
          );
        }
        if (deps.verifyToken === undefined || token === undefined || !sameText(token, deps.verifyToken)) {
          request.log.warn(
            { platform, configured: deps.verifyToken !== undefined },
            'platform webhook subscription refused: hub.verify_token does not match PLATFORM_WEBHOOK_VERIFY_TOKEN',
          );
          throw new ApiError(403, 'invalid_verify_token', 'hub.verify_token does not match.');
        }
        request.log.info({ platform }, 'platform webhook subscription verified');
        return reply.code(200).type('text/plain; charset=utf-8').send(challenge);
      },
    );

    app.post<{ Params: { platform: string } }>(
      '/platform-webhooks/:platform',
      { schema: { hide: true } },
      async (request, reply) => {
        const platform = commentPlatform(request.params.platform);
        const headers = Object.fromEntries(
          Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]),
        );
        const body = typeof request.body === 'string' ? request.body : '';
        let notices: CommentNotice[];
        try {
          const comments = commentsOf(deps.platforms().adapter(platform));
          notices = comments.receiveNotices
            ? await comments.receiveNotices({ headers, body })
            : comments.parseCommentNotices({ headers, body });
        } catch (error) {
          if (!(error instanceof PlatformError)) throw error;
          if (error.passing) {
            // Not the notice's fault (the keys to check it with out of reach): the platform sends it again.
            request.log.warn(
              { platform, kind: error.kind, err: error.message },
              'platform notice not checked; left for its retry',
            );
            throw new ApiError(
              503,
              'platform_unavailable',
              'The notice could not be checked now; send it again later.',
            );
          }
          // Why is the operator's to read, not the sender's: an unknown caller learns nothing of the checks.
          request.log.warn({ platform, kind: error.kind, err: error.message }, 'platform webhook refused');
          throw new ApiError(401, 'invalid_signature', 'The notice is not signed as the platform signs its notices.');
        }
        const usable = notices.filter((n) =>
          [n.accountPlatformUserId, n.comment.id, n.comment.postId, n.comment.parentId ?? 'none'].every((id) =>
            PLATFORM_ID.test(id),
          ),
        );
        if (usable.length < notices.length) {
          request.log.warn(
            { platform, dropped: notices.length - usable.length },
            'platform notice with malformed ids; those comments dropped',
          );
        }
        const comments = usable.map(toNoticeComment);
        if (comments.length > 0) await queued.submit({ platform, comments });
        noticesMetric.inc({ platform }, comments.length);
        return reply.code(200).send({ received: comments.length });
      },
    );
  };
}
