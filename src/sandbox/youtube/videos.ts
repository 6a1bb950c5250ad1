/**
 * YouTube videos: `videos.insert` through the resumable upload protocol on www.googleapis.com
 * (`POST /upload/youtube/v3/videos?uploadType=resumable` starts a session whose URI the
 * `Location` header gives; `PUT` on it sends bytes, or asks with `Content-Range: bytes * /<size>`
 * how many arrived: 308 Resume Incomplete with `Range`, or 201 with the video once all did), and
 * `videos.list` (its `status.uploadStatus` and `processingDetails.processingStatus`, processed
 * `container_processing_seconds` after the upload).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { caller, requireScope } from '../caller.ts';
import { google, googleAnswer } from '../google/answers.ts';
import { lastPacificMidnight } from '../google/quota.ts';
import { param } from '../kit.ts';
import type { Store } from '../platform.ts';
import type { SandboxAccount, SandboxContainer } from '../schema.ts';
import { findAccount, pagesOf } from '../store/accounts.ts';
import { recordActivity, recordPublication } from '../store/activity.ts';
import {
  CONTAINER_PROCESSING_SECONDS,
  containersOfAppSince,
  createContainer,
  findContainer,
  findContainerOfPost,
  setContainerPost,
  setContainerRequest,
} from '../store/containers.ts';
import { createPost, findPost } from '../store/posts.ts';
import { oneOf, waitMs, wholeNumber } from '../store/setting-kinds.ts';
import { getSetting } from '../store/settings.ts';
import { call, publishCall, SCOPE } from './access.ts';
import { chargedCaller, UNITS } from './units.ts';

const UPLOAD_PATH = '/upload/youtube/v3/videos';
/** "Maximum file size: 256GB" (videos.insert). */
const MAX_FILE_BYTES = 256 * 1024 ** 3;
/** The sandbox keeps no bytes, only their count; a request takes at most this many. */
const MAX_REQUEST_BYTES = 64 * 1024 * 1024;
const PRIVACY = ['public', 'unlisted', 'private'];
/**
 * Upload sessions the sandbox app may start a day (Pacific Time): 100, the Quota Calculator's
 * "100 videos.insert calls" a project. Lower it to spend it in a test.
 */
export const DAILY_UPLOADS = wholeNumber('youtube_daily_uploads', 100, 10_000);
/**
 * Whether the sandbox app's Google project passed YouTube's audit: "All videos uploaded via the
 * videos.insert endpoint from unverified API projects created after 28 July 2020 will be
 * restricted to private viewing mode" (Videos: insert). Uploads started while it is `unaudited`
 * stay private, whatever their privacyStatus or publishAt.
 */
export const PROJECT_AUDIT = oneOf('youtube_project_audit', ['audited', 'unaudited']);

/** What a session keeps (a container's `request`). */
interface Session {
  kind: 'youtube_upload';
  channelId: string;
  size: number;
  received: number;
  contentType: string;
  title: string;
  description: string;
  tags: string[];
  categoryId: string | null;
  privacyStatus: string;
  publishAt: string | null;
  madeForKids: boolean | null;
  notifySubscribers: boolean;
  videoId?: string;
  uploadedAt?: string;
  /** videos.delete removed it: no longer listed, and never made public. */
  deleted?: boolean;
  /** Uploaded while the project was unaudited: private for good. */
  restricted?: boolean;
}

const invalid = (reason: string, message: string) => googleAnswer(400, reason, message, 'youtube.video');

function hostBase(request: FastifyRequest): string {
  const prefix = request.url.split(UPLOAD_PATH)[0] ?? '';
  return `${request.protocol}://${request.host}${prefix}`;
}

/** The caller's one channel: a Google grant acts for the channel chosen at consent. */
async function channelOf(store: Store, user: SandboxAccount): Promise<SandboxAccount> {
  const [channel] = await pagesOf(store, user.id);
  if (channel === undefined) throw googleAnswer(403, 'youtubeSignupRequired', 'The user has no YouTube channel.');
  return channel;
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The video resource's metadata, checked as the Videos resource states its limits. */
function metadataOf(
  body: unknown,
): Omit<Session, 'kind' | 'channelId' | 'size' | 'received' | 'contentType' | 'notifySubscribers'> {
  const snippet = record(record(body).snippet);
  const status = record(record(body).status);
  const title = typeof snippet.title === 'string' ? snippet.title : '';
  // "The property value has a maximum length of 100 characters and may contain all valid UTF-8
  // characters except < and >"; a video needs a title.
  if (title.trim() === '' || [...title].length > 100 || /[<>]/.test(title)) {
    throw invalid('invalidTitle', 'The request metadata specifies an invalid or empty video title.');
  }
  const description = typeof snippet.description === 'string' ? snippet.description : '';
  if (Buffer.byteLength(description, 'utf8') > 5000 || /[<>]/.test(description)) {
    throw invalid('invalidDescription', 'The request metadata specifies an invalid video description.');
  }
  const tags = Array.isArray(snippet.tags) ? snippet.tags.filter((t): t is string => typeof t === 'string') : [];
  // 500 characters in all, a tag with a space counted with its quotes, and the commas between tags.
  const tagLength =
    tags.reduce((n, t) => n + [...t].length + (t.includes(' ') ? 2 : 0), 0) + Math.max(0, tags.length - 1);
  if (tagLength > 500 || tags.some((t) => /[<>]/.test(t))) {
    throw invalid('invalidTags', 'The request metadata specifies invalid video keywords.');
  }
  const categoryId = typeof snippet.categoryId === 'string' ? snippet.categoryId : null;
  if (categoryId !== null && !/^\d+$/.test(categoryId)) {
    throw invalid('invalidCategoryId', 'The snippet.categoryId property specifies an invalid category ID.');
  }
  const privacyStatus = typeof status.privacyStatus === 'string' ? status.privacyStatus : 'public';
  if (!PRIVACY.includes(privacyStatus)) {
    throw invalid('invalidVideoMetadata', 'The request metadata is invalid.');
  }
  const publishAt = typeof status.publishAt === 'string' ? status.publishAt : null;
  // "If you set a value for this property, you must also set the status.privacyStatus property to private."
  if (publishAt !== null && (privacyStatus !== 'private' || Number.isNaN(Date.parse(publishAt)))) {
    throw invalid('invalidPublishAt', 'The request metadata specifies an invalid scheduled publishing time.');
  }
  const madeForKids = typeof status.selfDeclaredMadeForKids === 'boolean' ? status.selfDeclaredMadeForKids : null;
  return { title, description, tags, categoryId, privacyStatus, publishAt, madeForKids };
}

function sessionOf(container: SandboxContainer | undefined): (Session & { id: string; accountId: string }) | null {
  if (container?.request.kind !== 'youtube_upload') return null;
  return { ...(container.request as unknown as Session), id: container.id, accountId: container.accountId };
}

/**
 * The privacy a video has now: a private one with a `publishAt` becomes public at that time, on
 * the sandbox's clock ("The date and time when the video is scheduled to publish", Videos
 * resource), and keeps no `publishAt` then.
 */
function privacyNow(store: Store, session: Session): { privacyStatus: string; publishAt: string | null } {
  if (session.restricted === true) return { privacyStatus: 'private', publishAt: session.publishAt };
  if (session.publishAt !== null && store.now().getTime() >= Date.parse(session.publishAt)) {
    return { privacyStatus: 'public', publishAt: null };
  }
  return { privacyStatus: session.privacyStatus, publishAt: session.publishAt };
}

/** A video resource, with the parts asked for. */
async function renderVideo(store: Store, session: Session, parts: Set<string>) {
  const uploadedAt = Date.parse(session.uploadedAt ?? '');
  const processed = store.now().getTime() >= uploadedAt + waitMs(await getSetting(store, CONTAINER_PROCESSING_SECONDS));
  const { privacyStatus, publishAt } = privacyNow(store, session);
  return {
    kind: 'youtube#video',
    etag: `etag-${session.videoId}`,
    id: session.videoId,
    ...(parts.has('snippet')
      ? {
          snippet: {
            publishedAt: session.uploadedAt,
            channelId: session.channelId,
            title: session.title,
            description: session.description,
            tags: session.tags,
            categoryId: session.categoryId ?? '22',
          },
        }
      : {}),
    ...(parts.has('status')
      ? {
          status: {
            uploadStatus: processed ? 'processed' : 'uploaded',
            privacyStatus,
            ...(publishAt === null ? {} : { publishAt }),
            license: 'youtube',
            embeddable: true,
            publicStatsViewable: true,
            madeForKids: session.madeForKids === true,
            ...(session.madeForKids === null ? {} : { selfDeclaredMadeForKids: session.madeForKids }),
          },
        }
      : {}),
    ...(parts.has('processingDetails')
      ? { processingDetails: { processingStatus: processed ? 'succeeded' : 'processing' } }
      : {}),
  };
}

/** The bytes of a request: all it sent, as a count. */
function bodyLength(request: FastifyRequest): number {
  const body = request.body;
  if (Buffer.isBuffer(body)) return body.length;
  if (typeof body === 'string') return Buffer.byteLength(body);
  return 0;
}

export function videoRoutes(app: FastifyInstance, store: Store): void {
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_REQUEST_BYTES }, (_request, body, done) =>
    done(null, body),
  );

  app.post(UPLOAD_PATH, async (request, reply) => {
    const who = await caller(store, request, publishCall);
    requireScope(who, call, SCOPE.upload, SCOPE.forceSsl, SCOPE.manage);
    if (param(request, 'uploadType') !== 'resumable') {
      throw google.badParameter('The sandbox takes uploads with uploadType=resumable only.');
    }
    const parts = (param(request, 'part') ?? '').split(',');
    if (!parts.includes('snippet') || !parts.includes('status')) {
      throw google.badParameter('The part parameter must name snippet and status.');
    }
    const size = Number(request.headers['x-upload-content-length']);
    if (!Number.isInteger(size) || size <= 0) {
      throw googleAnswer(400, 'mediaBodyRequired', 'The request does not include the video content.', 'youtube.video');
    }
    if (size > MAX_FILE_BYTES)
      throw googleAnswer(400, 'uploadLimitExceeded', 'The file is larger than 256GB.', 'youtube.video');
    const contentType = String(request.headers['x-upload-content-type'] ?? '');
    if (!/^(video\/[\w.+-]+|application\/octet-stream)$/.test(contentType)) {
      throw googleAnswer(
        400,
        'invalidVideoMetadata',
        'X-Upload-Content-Type must be video/* or application/octet-stream.',
        'youtube.video',
      );
    }
    // Quota Calculator: "100 videos.insert calls ... per day" a project, reset at midnight
    // Pacific Time; the sandbox counts the sessions its app started since then.
    const since = lastPacificMidnight(store.now());
    if (
      (await containersOfAppSince(store, 'youtube_upload', who.token.clientId, since)) >=
      (await getSetting(store, DAILY_UPLOADS))
    ) {
      throw googleAnswer(
        403,
        'quotaExceeded',
        'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
        'youtube.quota',
      );
    }
    const channel = await channelOf(store, who.account);
    const session: Session = {
      kind: 'youtube_upload',
      channelId: channel.id,
      size,
      received: 0,
      contentType,
      ...metadataOf(request.body),
      notifySubscribers: param(request, 'notifySubscribers') !== 'false',
      ...((await getSetting(store, PROJECT_AUDIT)) === 'unaudited' ? { restricted: true } : {}),
    };
    const container = await createContainer(store, channel.id, { ...session, client_id: who.token.clientId });
    return reply
      .code(200)
      .header('location', `${hostBase(request)}${UPLOAD_PATH}?uploadType=resumable&upload_id=${container.id}`)
      .send();
  });

  app.put(UPLOAD_PATH, async (request, reply) => {
    const who = await caller(store, request, call);
    const session = sessionOf(await findContainer(store, param(request, 'upload_id') ?? ''));
    const channel = session === null ? undefined : await findAccount(store, session.accountId);
    if (session === null || channel?.parentId !== who.account.id) throw google.notFound('upload session');
    const parts = new Set(['snippet', 'status']);
    if (session.videoId !== undefined) {
      // Everything arrived: the video, whatever the request (a status question, bytes again).
      return reply.code(200).send(await renderVideo(store, session, parts));
    }
    const range = String(request.headers['content-range'] ?? '');
    const length = bodyLength(request);
    const asked = /^bytes \*\/(\d+|\*)$/.exec(range);
    let received = session.received;
    if (asked === null) {
      const sent = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range);
      const start = sent === null ? 0 : Number(sent[1]);
      const end = sent === null ? length - 1 : Number(sent[2]);
      if (range !== '' && sent === null) throw google.badParameter('Content-Range is malformed.');
      if ((sent !== null && Number(sent[3]) !== session.size) || end - start + 1 !== length || start > received) {
        throw google.badParameter('Content-Range does not match the bytes sent or the session.');
      }
      received = Math.max(received, start + length);
      if (received > session.size) throw google.badParameter('More bytes than the session announced.');
    }
    if (received < session.size) {
      await setContainerRequest(store, session.id, { ...toRequest(session), received });
      // 308 Resume Incomplete, with the bytes held so far (none: no Range).
      if (received > 0) reply.header('range', `bytes=0-${received - 1}`);
      return reply.code(308).send();
    }
    const post = await createPost(store, channel, {
      caption: session.description,
      mediaType: 'VIDEO',
      mediaUrl: null,
      viaApi: true,
    });
    const done: Session = { ...toRequest(session), received, videoId: post.id, uploadedAt: store.now().toISOString() };
    await setContainerRequest(store, session.id, { ...done });
    await setContainerPost(store, session.id, post.id);
    await recordPublication(
      store,
      post,
      {
        text: session.description,
        mediaUrls: [],
        type: 'VIDEO',
        options: {
          title: session.title,
          tags: session.tags,
          category_id: session.categoryId,
          privacy_status: session.privacyStatus,
          publish_at: session.publishAt,
          self_declared_made_for_kids: session.madeForKids,
          notify_subscribers: session.notifySubscribers,
        },
      },
      { bytes: received, content_type: session.contentType },
    );
    return reply.code(201).send(await renderVideo(store, done, parts));
  });

  app.get('/youtube/v3/videos', async (request) => {
    const who = await chargedCaller(store, request, UNITS.list);
    requireScope(who, call, SCOPE.upload, SCOPE.forceSsl, SCOPE.readonly, SCOPE.manage);
    const parts = new Set((param(request, 'part') ?? '').split(',').map((p) => p.trim()));
    if (parts.size === 0 || parts.has('')) throw google.badParameter('No filter selected. Expected one of: part');
    const ids = (param(request, 'id') ?? '').split(',').filter((id) => id !== '');
    const items = [];
    for (const id of ids) {
      const post = await findPost(store, id);
      const session = post === undefined ? null : sessionOf(await findContainerOfPost(store, post.id));
      // A video of another channel is public or not there; the sandbox knows only uploads.
      if (session !== null && session.deleted !== true) items.push(await renderVideo(store, session, parts));
    }
    return {
      kind: 'youtube#videoListResponse',
      etag: `etag-${who.account.id}`,
      pageInfo: { totalResults: items.length, resultsPerPage: items.length },
      items,
    };
  });

  /** One of the caller's own uploads, by the video id a request names (Videos: update, Videos: delete). */
  async function ownVideo(request: FastifyRequest, id: string) {
    const who = await chargedCaller(store, request, UNITS.write);
    // Videos: update and Videos: delete take youtube, youtube.force-ssl or youtubepartner, not youtube.upload.
    requireScope(who, call, SCOPE.forceSsl, SCOPE.manage);
    const post = id === '' ? undefined : await findPost(store, id);
    const session = post === undefined ? null : sessionOf(await findContainerOfPost(store, post.id));
    const channel = session === null ? undefined : await findAccount(store, session.accountId);
    if (session === null || session.deleted === true) {
      throw googleAnswer(
        404,
        'videoNotFound',
        'The video that you are trying to use cannot be found.',
        'youtube.video',
      );
    }
    if (channel?.parentId !== who.account.id) {
      throw googleAnswer(
        403,
        'forbidden',
        'The video that you are trying to change cannot be changed.',
        'youtube.video',
      );
    }
    return session;
  }

  // Videos: update. "this method will override the existing values for all of the mutable
  // properties that are contained in any parts that the parameter value specifies": the sandbox
  // imitates the status part only (privacyStatus, publishAt, selfDeclaredMadeForKids).
  app.put('/youtube/v3/videos', async (request) => {
    const body = record(request.body);
    const session = await ownVideo(request, typeof body.id === 'string' ? body.id : '');
    const parts = new Set((param(request, 'part') ?? '').split(',').map((p) => p.trim()));
    if (!parts.has('status')) throw google.badParameter('The sandbox updates the status part only.');
    const status = record(body.status);
    const privacyStatus = typeof status.privacyStatus === 'string' ? status.privacyStatus : 'public';
    if (!PRIVACY.includes(privacyStatus)) throw invalid('invalidVideoMetadata', 'The request metadata is invalid.');
    const publishAt = typeof status.publishAt === 'string' ? status.publishAt : null;
    if (publishAt !== null && (privacyStatus !== 'private' || Number.isNaN(Date.parse(publishAt)))) {
      throw invalid('invalidPublishAt', 'The request metadata specifies an invalid scheduled publishing time.');
    }
    const madeForKids =
      typeof status.selfDeclaredMadeForKids === 'boolean' ? status.selfDeclaredMadeForKids : session.madeForKids;
    const updated: Session = { ...toRequest(session), privacyStatus, publishAt, madeForKids };
    await setContainerRequest(store, session.id, { ...updated });
    await recordActivity(store, {
      accountId: session.accountId,
      action: 'update',
      targetId: session.videoId ?? '',
      detail: { privacy_status: privacyStatus, publish_at: publishAt },
    });
    return await renderVideo(store, updated, new Set(['snippet', 'status']));
  });

  // Videos: delete: 204 No Content; an unknown video 404 videoNotFound, another's 403 forbidden.
  app.delete('/youtube/v3/videos', async (request, reply) => {
    const session = await ownVideo(request, param(request, 'id') ?? '');
    await setContainerRequest(store, session.id, { ...toRequest(session), deleted: true });
    await recordActivity(store, {
      accountId: session.accountId,
      action: 'delete',
      targetId: session.videoId ?? '',
      detail: {},
    });
    return reply.code(204).send();
  });
}

function toRequest(session: Session & { id?: string; accountId?: string }): Session {
  const { id: _id, accountId: _accountId, ...rest } = session;
  return rest;
}
