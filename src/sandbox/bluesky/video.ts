/**
 * Bluesky's video service (video.bsky.app), imitated from "Uploading Video" and the
 * app.bsky.video lexicons: service tokens the PDS signs (`com.atproto.server.getServiceAuth`,
 * answered by the PDS), `app.bsky.video.getUploadLimits` with a token for the video service,
 * `app.bsky.video.uploadVideo` with a token for the user's PDS bound to
 * `com.atproto.repo.uploadBlob` (the service stores the processed video there with it), and
 * `app.bsky.video.getJobStatus`, which needs no token. A job is `JOB_STATE_ENCODING` for
 * `container_processing_seconds`, then `JOB_STATE_COMPLETED` with the blob the PDS now holds (a
 * blob distinct from the bytes sent: the video is re-encoded), or `JOB_STATE_FAILED` while the
 * control API's `bluesky_video_processing` is `fails`. The same bytes sent again by the same
 * account make a job that follows the earlier one's processing; once that one is done it answers
 * `already_exists` with the earlier video's blob ("getJobStatus will return an error with the
 * message already_exists ... it will return the BlobRef of the previously processed video"). The
 * upload itself then answers 409 with `already_exists` and no blob (the sandbox's reading of
 * atproto issue #3097: `JOB_STATE_COMPLETED`, `error: already_exists`).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { jwtVerify, SignJWT } from 'jose';
import { DAY_MS } from '../../days.ts';
import { sniffFormat } from '../media-fetch.ts';
import type { Store } from '../platform.ts';
import type { SandboxContainer } from '../schema.ts';
import { findAccount } from '../store/accounts.ts';
import {
  CONTAINER_PROCESSING_SECONDS,
  containersOfAccountSince,
  createContainer,
  findContainer,
  findContainerByRequest,
} from '../store/containers.ts';
import { answerWaitingFault } from '../store/faults.ts';
import { oneOf, waitMs, wholeNumber } from '../store/setting-kinds.ts';
import { getSetting } from '../store/settings.ts';
import { cidOf, HOST, platform, xrpcAnswer, xrpcDialect } from './access.ts';

/** Whether the videos sent from now on are processed, or fail (the control API's switch). */
export const VIDEO_PROCESSING = oneOf('bluesky_video_processing', ['succeeds', 'fails']);
/** The videos an account may send a day: Bluesky's announced 25 (and 10 GB). */
export const VIDEO_DAILY_UPLOADS = wholeNumber('bluesky_video_daily_uploads', 25, 10_000);
const DAILY_BYTES = 10 * 1024 ** 3;
/** "app.bsky.embed.video": "May be up to 300mb, formerly limited to 100mb"; the service takes no larger a file. */
export const MAX_VIDEO_BYTES = 300_000_000;
export const VIDEO_SERVICE_DID = `did:web:${HOST.video}`;
const KIND = 'bsky_video';
/** getServiceAuth: a token bound to a method lasts at most an hour; one bound to none, a minute. */
const MAX_BOUND_SECONDS = 3600;
const MAX_UNBOUND_SECONDS = 60;

/** A blob the PDS holds, by its CID. */
export interface StoredBlob {
  mimeType: string;
  size: number;
}

export interface ServiceTokens {
  /** A token of `iss` for `aud`, bound to `lxm`, ending at `exp` (Unix seconds). */
  sign(claims: { iss: string; aud: string; lxm?: string; exp: number }): Promise<string>;
  /** The claims of a token this sandbox signed, or null when it is not one or has ended. */
  verify(token: string, now: Date): Promise<{ iss: string; aud: string; lxm?: string } | null>;
}

export function serviceTokens(): ServiceTokens {
  const key = randomBytes(32);
  return {
    async sign({ iss, aud, lxm, exp }) {
      return await new SignJWT({ ...(lxm === undefined ? {} : { lxm }) })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(iss)
        .setAudience(aud)
        .setIssuedAt()
        .setExpirationTime(exp)
        .setJti(randomBytes(8).toString('hex'))
        .sign(key);
    },
    async verify(token, now) {
      try {
        const { payload } = await jwtVerify(token, key, { currentDate: now });
        const { iss, aud, lxm } = payload;
        if (typeof iss !== 'string' || typeof aud !== 'string') return null;
        return { iss, aud, ...(typeof lxm === 'string' ? { lxm } : {}) };
      } catch {
        return null;
      }
    },
  };
}

/** com.atproto.server.getServiceAuth's answer for `iss`, or its refusal. */
export async function serviceAuth(
  tokens: ServiceTokens,
  iss: string,
  query: Record<string, unknown>,
  now: Date,
): Promise<{ token: string }> {
  const aud = typeof query.aud === 'string' ? query.aud : '';
  if (!/^did:[a-z]+:[a-zA-Z0-9._:%-]+$/.test(aud)) throw xrpcAnswer(400, 'InvalidRequest', 'aud must be a DID');
  const lxm = typeof query.lxm === 'string' && query.lxm !== '' ? query.lxm : undefined;
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const exp = query.exp === undefined ? nowSeconds + MAX_UNBOUND_SECONDS : Number(query.exp);
  if (!Number.isInteger(exp) || exp <= nowSeconds) throw xrpcAnswer(400, 'BadExpiration', 'expiration is in past');
  const most = lxm === undefined ? MAX_UNBOUND_SECONDS : MAX_BOUND_SECONDS;
  if (exp - nowSeconds > most) {
    throw xrpcAnswer(
      400,
      'BadExpiration',
      lxm === undefined
        ? 'cannot request a token without a method binding that lasts more than 60 seconds'
        : 'cannot request a token with an expiration more than an hour in the future',
    );
  }
  return { token: await tokens.sign({ iss, aud, exp, ...(lxm === undefined ? {} : { lxm }) }) };
}

/** What a job keeps (its container's request). */
interface Job {
  kind: typeof KIND;
  did: string;
  name: string;
  /** The CID of the bytes sent, which tells the same video sent again. */
  sourceCid: string;
  /** The blob the processed video is stored as. */
  cid: string;
  size: number;
  /** The earlier job of the same bytes, whose video this one is (`already_exists`). */
  existing?: string;
}

export function videoRoutes(
  app: FastifyInstance,
  store: Store,
  blobs: Map<string, StoredBlob>,
  tokens: ServiceTokens,
): void {
  app.addContentTypeParser(/^video\//, { parseAs: 'buffer', bodyLimit: MAX_VIDEO_BYTES + 1 }, (_r, payload, done) =>
    done(null, payload),
  );

  /** The service token of the request, for `aud` and bound to `lxm`; refused otherwise. */
  async function bearer(request: FastifyRequest, aud: string, lxm: string) {
    const auth = request.headers.authorization ?? '';
    if (!auth.startsWith('Bearer ')) throw xrpcAnswer(401, 'AuthMissing', 'Authentication Required');
    const claims = await tokens.verify(auth.slice('Bearer '.length).trim(), store.now());
    if (claims === null) throw xrpcAnswer(401, 'BadJwt', 'jwt signature does not match jwt issuer, or it expired');
    if (claims.aud !== aud) throw xrpcAnswer(401, 'BadJwtAudience', `jwt audience does not match service did: ${aud}`);
    if (claims.lxm !== lxm) throw xrpcAnswer(401, 'BadJwtLexiconMethod', `bad jwt lexicon method ("lxm"): ${lxm}`);
    const user = await findAccount(store, claims.iss);
    if (user === undefined || user.platform !== platform) throw xrpcAnswer(401, 'BadJwt', 'unknown jwt issuer');
    // A fault set for the user's next call through the control API answers here too.
    await answerWaitingFault(store, [user.id], ['call'], (preset) => xrpcDialect(store.now).preset(preset));
    return user;
  }

  async function allowance(did: string) {
    const since = new Date(store.now().getTime() - DAY_MS);
    const jobs = await containersOfAccountSince(store, did, KIND, since);
    const videos = Math.max(0, (await getSetting(store, VIDEO_DAILY_UPLOADS)) - jobs.length);
    const bytes = Math.max(0, DAILY_BYTES - jobs.reduce((sum, j) => sum + Number(j.request.size ?? 0), 0));
    return { canUpload: videos > 0 && bytes > 0, remainingDailyVideos: videos, remainingDailyBytes: bytes };
  }

  app.get('/xrpc/app.bsky.video.getUploadLimits', async (request) => {
    const user = await bearer(request, VIDEO_SERVICE_DID, 'app.bsky.video.getUploadLimits');
    const limits = await allowance(user.id);
    return limits.canUpload ? limits : { ...limits, message: 'You have reached your daily video upload limit' };
  });

  async function statusOf(job: SandboxContainer): Promise<Record<string, unknown>> {
    const kept = job.request as unknown as Job;
    const base = { jobId: job.id, did: kept.did };
    if (kept.existing !== undefined) {
      const earlier = await findContainer(store, kept.existing);
      const first = earlier === undefined ? { state: 'JOB_STATE_FAILED' } : await statusOf(earlier);
      if (first.state !== 'JOB_STATE_COMPLETED') return { ...first, ...base };
      return {
        ...base,
        state: 'JOB_STATE_COMPLETED',
        error: 'already_exists',
        message: 'Video already processed',
        blob: first.blob,
      };
    }
    const blob = { $type: 'blob', ref: { $link: kept.cid }, mimeType: 'video/mp4', size: kept.size };
    if (job.failure !== null) {
      return {
        ...base,
        state: 'JOB_STATE_FAILED',
        failureCode: job.failure,
        error: job.failure,
        message: 'Video processing failed',
      };
    }
    const processing = waitMs(await getSetting(store, CONTAINER_PROCESSING_SECONDS));
    const elapsed = store.now().getTime() - job.createdAt.getTime();
    if (elapsed < processing) {
      return { ...base, state: 'JOB_STATE_ENCODING', progress: Math.floor((elapsed / processing) * 100) };
    }
    // Processed: the service stored the video in the user's repository.
    blobs.set(kept.cid, { mimeType: 'video/mp4', size: kept.size });
    return { ...base, state: 'JOB_STATE_COMPLETED', progress: 100, blob };
  }

  app.post('/xrpc/app.bsky.video.uploadVideo', async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const did = typeof query.did === 'string' ? query.did : '';
    const user = await bearer(request, `did:web:${HOST.pds}`, 'com.atproto.repo.uploadBlob');
    if (user.id !== did) throw xrpcAnswer(400, 'InvalidRequest', 'did does not match the token issuer');
    const name = typeof query.name === 'string' ? query.name : '';
    if (name === '') throw xrpcAnswer(400, 'InvalidRequest', 'name is required');
    const bytes = request.body;
    if (!Buffer.isBuffer(bytes) || bytes.length === 0) throw xrpcAnswer(400, 'InvalidRequest', 'Request body is empty');
    if (bytes.length > MAX_VIDEO_BYTES) throw xrpcAnswer(413, 'PayloadTooLarge', 'Video is too large');
    const format = sniffFormat(bytes.subarray(0, 32));
    if (format !== 'mp4' && format !== 'mov') throw xrpcAnswer(400, 'InvalidRequest', 'Unsupported video format');
    if (!(await allowance(did)).canUpload)
      throw xrpcAnswer(400, 'InvalidRequest', 'You have reached your daily video upload limit');
    const sourceCid = cidOf('bafkrei', bytes);
    // A video whose processing failed is processed anew when sent again.
    const earlier = await findContainerByRequest(store, did, KIND, 'sourceCid', sourceCid);
    const fails = (await getSetting(store, VIDEO_PROCESSING)) === 'fails';
    const job: Job = {
      kind: KIND,
      did,
      name,
      sourceCid,
      cid: (earlier?.request as Job | undefined)?.cid ?? cidOf('bafkrei', `processed\n${sourceCid}`),
      size: bytes.length,
      ...(earlier === undefined ? {} : { existing: earlier.id }),
    };
    const made = await createContainer(
      store,
      did,
      job as unknown as Record<string, unknown>,
      fails && earlier === undefined ? 'encoding_failure' : null,
    );
    if (earlier !== undefined && (await statusOf(earlier)).state === 'JOB_STATE_COMPLETED') {
      return reply.code(409).send({
        jobId: made.id,
        did,
        state: 'JOB_STATE_COMPLETED',
        error: 'already_exists',
        message: 'Video already processed',
      });
    }
    return { jobId: made.id, did, state: 'JOB_STATE_CREATED', progress: 0 };
  });

  app.get('/xrpc/app.bsky.video.getJobStatus', async (request) => {
    const jobId = String((request.query as Record<string, unknown>).jobId ?? '');
    const job = /^\d{1,30}$/.test(jobId) ? await findContainer(store, jobId) : undefined;
    if (job === undefined || job.request.kind !== KIND) throw xrpcAnswer(404, 'NotFound', 'Job not found');
    return { jobStatus: await statusOf(job) };
  });
}
