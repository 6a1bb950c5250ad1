/**
 * Publishing a video to YouTube: `videos.insert` through the resumable upload protocol. The
 * container is the upload session: its URI is made (the video's metadata sent, no byte yet)
 * and recorded before any byte is sent; each read of it asks the session how many bytes arrived
 * (`Content-Range: bytes * /<size>`), sends the rest, and once YouTube has the whole video reads
 * its processing (`videos.list`). A crash mid-upload resumes the same session, so the video is
 * never inserted twice. Facts: docs/platforms.md, "YouTube".
 */
import { type Readable, Transform } from 'node:stream';
import { request } from 'undici';
import { invalidRequest } from '../errors.ts';
import { googleError, isDaySpent, midnightPacificAfter, pacificDay } from '../google/errors.ts';
import { header, list, parseJson, record, str, underBase } from '../http.ts';
import { draftOf, optionsOf, refuseProblems } from '../publish-checks.ts';
import {
  type AccountCredentials,
  type ContainerContext,
  type ContainerStatus,
  PlatformError,
  type PublishedPost,
  type PublishingCapability,
  type PublishRequest,
  type WithdrawOutcome,
} from '../types.ts';
import type { YouTubeContext } from './channels.ts';
import { YOUTUBE_OPTIONS } from './definition.ts';
import { youtubeProblems } from './publish-rules.ts';
import { unitSettings } from './quota.ts';

const platform = 'youtube';
const TRANSFER_TIMEOUT_MS = 30 * 60_000;

/** What the service keeps of an upload (the target's container id, as JSON): enough to resume it. */
interface Upload {
  /** The session URI YouTube gave. */
  session: string;
  size: number;
  contentType: string;
  /**
   * A URL of the service's video file, in records made before the service gave one at each read
   * (`ContainerContext.mediaUrls`): signed for MEDIA_URL_TTL_SECONDS only.
   */
  media?: string;
  /** The privacy the video should end with (`public` for one YouTube publishes at its time); absent in older records. */
  privacy?: string;
}

function uploadOf(containerId: string): Upload {
  const value = record(parseJsonSafe(containerId));
  const session = str(value.session);
  const media = str(value.media);
  const size = typeof value.size === 'number' ? value.size : null;
  if (session === null || size === null) {
    throw invalidRequest(platform, 'the container is not a YouTube upload session');
  }
  const privacy = str(value.privacy);
  return {
    session,
    size,
    ...(media === null ? {} : { media }),
    contentType: str(value.contentType) ?? 'application/octet-stream',
    ...(privacy === null ? {} : { privacy }),
  };
}

function parseJsonSafe(text: string): unknown {
  try {
    return parseJson(text);
  } catch {
    return null;
  }
}

/** A call's answer, read whole. */
interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  text: string;
}

/** Videos a Google project may upload a day where the setting is not handed over (Quota Calculator). */
const DEFAULT_DAILY_UPLOADS = 100;
/** How long after its publishAt a scheduled video still private is read again before it is taken as kept private. */
const PUBLIC_GRACE_MS = 10 * 60_000;

export function youtubePublishing(context: YouTubeContext): PublishingCapability {
  const { options, now } = context;
  const via = options.dispatcher ? { dispatcher: options.dispatcher } : {};
  const count = (status: number) =>
    options.countCall?.(
      platform,
      status < 400 ? 'ok' : status === 429 ? 'rate_limited' : status < 500 ? 'client_error' : 'server_error',
    );

  /** One call to the upload endpoint (its body a stream, or none), classified as Google's errors are. */
  async function send(
    method: 'POST' | 'PUT',
    url: string,
    token: string,
    headers: Record<string, string>,
    body?: string | Readable,
  ): Promise<Answer> {
    let answer: Awaited<ReturnType<typeof request>>;
    try {
      answer = await request(url, {
        method,
        headers: { authorization: `Bearer ${token}`, ...headers },
        ...(body === undefined ? {} : { body }),
        signal: AbortSignal.timeout(TRANSFER_TIMEOUT_MS),
        ...via,
      });
    } catch (error) {
      options.countCall?.(platform, 'unreachable');
      throw new PlatformError('transient', `youtube could not be reached: ${(error as Error).message}`, { platform });
    }
    const text = await answer.body.text();
    count(answer.statusCode);
    const result = { status: answer.statusCode, headers: answer.headers, body: parseJsonSafe(text), text };
    // 308 Resume Incomplete is the protocol's own answer, not a failure.
    if (answer.statusCode >= 400) throw googleError(platform, result, now());
    return result;
  }

  /** The service's file: its size and type, read from a first byte asked for. */
  async function mediaFacts(url: string): Promise<{ size: number; contentType: string }> {
    let source: Awaited<ReturnType<typeof request>>;
    try {
      source = await request(url, { headers: { range: 'bytes=0-0' }, ...via });
    } catch (error) {
      throw new PlatformError('transient', `the video could not be read for YouTube: ${(error as Error).message}`, {
        platform,
      });
    }
    await source.body.dump();
    const contentRange = source.headers['content-range'];
    const range = /\/(\d+)$/.exec(typeof contentRange === 'string' ? contentRange : '');
    const size = range ? Number(range[1]) : Number(source.headers['content-length']);
    if (![200, 206].includes(source.statusCode) || !Number.isInteger(size) || size <= 0) {
      throw new PlatformError('transient', `the video could not be read for YouTube (HTTP ${source.statusCode})`, {
        platform,
      });
    }
    const type =
      String(source.headers['content-type'] ?? '')
        .split(';')[0]
        ?.trim() ?? '';
    return { size, contentType: /^video\//.test(type) ? type : 'application/octet-stream' };
  }

  /** The file from byte `from` on, as a stream (skipping what a server that ignores Range sends first). */
  async function mediaFrom(url: string, from: number): Promise<Readable> {
    let source: Awaited<ReturnType<typeof request>>;
    try {
      source = await request(url, { ...(from > 0 ? { headers: { range: `bytes=${from}-` } } : {}), ...via });
    } catch (error) {
      throw new PlatformError('transient', `the video could not be read for YouTube: ${(error as Error).message}`, {
        platform,
      });
    }
    if (source.statusCode === 206 || (source.statusCode === 200 && from === 0)) return source.body;
    if (source.statusCode !== 200) {
      await source.body.dump();
      throw new PlatformError('transient', `the video could not be read for YouTube (HTTP ${source.statusCode})`, {
        platform,
      });
    }
    let skip = from;
    return source.body.pipe(
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          if (skip >= chunk.length) {
            skip -= chunk.length;
            return done();
          }
          const rest = chunk.subarray(skip);
          skip = 0;
          done(null, rest);
        },
      }),
    );
  }

  /** The bytes the session holds (from a 308's `Range: bytes=0-<last>`; none without one). */
  function held(answer: Answer): number {
    const range = /^bytes=0-(\d+)$/.exec(header(answer, 'range') ?? '');
    return range ? Number(range[1]) + 1 : 0;
  }

  /** The session's state: the video once YouTube has it all, else the bytes it holds; null when the session is gone. */
  async function sessionState(
    { accessToken }: AccountCredentials,
    upload: Upload,
  ): Promise<{ videoId: string } | { held: number } | null> {
    let answer: Answer;
    try {
      answer = await send('PUT', upload.session, accessToken, { 'content-range': `bytes */${upload.size}` });
    } catch (error) {
      // "404 Not Found": the session expired before the video was complete; nothing was inserted.
      if (error instanceof PlatformError && (error.detail.status === 404 || error.detail.status === 410)) return null;
      throw error;
    }
    if (answer.status === 308) return { held: held(answer) };
    const id = str(record(answer.body).id);
    if (id === null || id === '')
      throw new PlatformError('transient', 'youtube answered the upload without a video id', { platform });
    return { videoId: id };
  }

  /**
   * Sends the bytes the session lacks: the video's id once it has them all. The file is read at
   * a URL the service signs now (a recorded one would have ended with MEDIA_URL_TTL_SECONDS).
   */
  async function sendRest(
    { accessToken }: AccountCredentials,
    upload: Upload,
    from: number,
    expected: ContainerContext,
  ): Promise<string | null> {
    const [fresh] = (await expected.mediaUrls?.()) ?? [];
    const url = fresh ?? upload.media;
    if (url === undefined) {
      throw new PlatformError('transient', 'the video to resume the upload with was not given', { platform });
    }
    const body = await mediaFrom(url, from);
    const answer = await send(
      'PUT',
      upload.session,
      accessToken,
      {
        'content-type': upload.contentType,
        'content-length': String(upload.size - from),
        'content-range': `bytes ${from}-${upload.size - 1}/${upload.size}`,
      },
      body,
    );
    if (answer.status === 308) return null;
    return str(record(answer.body).id);
  }

  /** The video as videos.list gives it to its channel (status and processing); null when no longer listed. */
  async function readVideo({ accessToken }: AccountCredentials, videoId: string) {
    const answer = await context.google.api(
      'GET',
      context.google.url('www.googleapis.com', '/youtube/v3/videos'),
      accessToken,
      {
        query: { part: 'status,processingDetails', id: videoId },
      },
    );
    const video = record(list(answer.items)[0]);
    if (str(video.id) === null) return null;
    return { status: record(video.status), processing: record(video.processingDetails) };
  }

  /** The time YouTube publishes a private video by itself (`status.publishAt`), while it is still ahead. */
  function publishAtAhead(status: Record<string, unknown>): string | null {
    const at = str(status.publishAt);
    if (str(status.privacyStatus) !== 'private' || at === null) return null;
    const time = Date.parse(at);
    return Number.isNaN(time) || time <= now().getTime() ? null : new Date(time).toISOString();
  }

  /**
   * Videos: update of the status part, which "will override the existing values for all of the
   * mutable properties" in it: the video's own values are sent back, with the new publishAt.
   */
  async function movePublishAt(
    { accessToken }: AccountCredentials,
    videoId: string,
    status: Record<string, unknown>,
    publishAt: string,
  ): Promise<Record<string, unknown>> {
    const { uploadStatus: _u, failureReason: _f, rejectionReason: _r, madeForKids: _m, ...mutable } = status;
    const answer = await context.google.api(
      'PUT',
      context.google.url('www.googleapis.com', '/youtube/v3/videos'),
      accessToken,
      { query: { part: 'status' }, json: { id: videoId, status: { ...mutable, privacyStatus: 'private', publishAt } } },
    );
    return { ...status, ...record(answer.status) };
  }

  async function videoStatus(
    credentials: AccountCredentials,
    videoId: string,
    expected: ContainerContext,
    asked: string | undefined,
  ): Promise<ContainerStatus> {
    const video = await readVideo(credentials, videoId);
    if (video === null) return { state: 'failed', message: 'YouTube no longer lists the uploaded video' };
    const { processing } = video;
    let { status } = video;
    const held = publishAtAhead(status);
    if (held !== null && expected.publishAt !== undefined && Date.parse(expected.publishAt) !== Date.parse(held)) {
      // The post was moved after its upload: YouTube is given its new time first.
      status = await movePublishAt(credentials, videoId, status, new Date(expected.publishAt).toISOString());
    }
    switch (str(status.uploadStatus)) {
      case 'processed': {
        // Uploaded ahead: private until its publishAt, when YouTube makes it public by itself.
        const ahead = publishAtAhead(status);
        if (ahead !== null) {
          return {
            state: 'in_progress',
            publishesAt: ahead,
            message: `Uploaded to YouTube as private; YouTube makes it public at ${ahead}.`,
          };
        }
        return privacyOutcome(status, asked);
      }
      case 'failed':
        return { state: 'failed', message: `the upload failed (${str(status.failureReason) ?? 'no reason given'})` };
      case 'rejected':
        return {
          state: 'failed',
          message: `YouTube rejected the video (${str(status.rejectionReason) ?? 'no reason given'})`,
        };
      case 'deleted':
        return { state: 'failed', message: 'the video was deleted' };
      default:
        return {
          state: 'in_progress',
          message: `YouTube is processing the video (${str(processing.processingStatus) ?? 'uploaded'}).`,
        };
    }
  }

  /**
   * A processed video: published. Its privacy is compared with the one asked for: an unaudited
   * Google project's uploads stay private ("All videos uploaded via the videos.insert endpoint
   * from unverified API projects created after 28 July 2020 will be restricted to private
   * viewing mode", Videos: insert), which the target and its event then say. A video whose
   * publishAt has just passed is given a few minutes to become public first.
   */
  function privacyOutcome(status: Record<string, unknown>, asked: string | undefined): ContainerStatus {
    const privacy = str(status.privacyStatus);
    if (asked === undefined || privacy === null || privacy === asked) return { state: 'published' };
    const due = Date.parse(str(status.publishAt) ?? '');
    if (!Number.isNaN(due) && now().getTime() < due + PUBLIC_GRACE_MS) {
      return {
        state: 'in_progress',
        message: `YouTube has not made the video public yet (due at ${new Date(due).toISOString()}).`,
      };
    }
    return {
      state: 'published',
      warning: {
        code: 'privacy_restricted',
        message: `YouTube keeps the video ${privacy} although ${asked} was asked. A Google project that has not passed YouTube's audit has every upload restricted to private: have the project audited, then change the video's privacy on YouTube.`,
      },
    };
  }

  const permalink = (id: string) => `https://www.youtube.com/watch?v=${encodeURIComponent(id)}`;

  return {
    checkPublish: youtubeProblems,
    // YouTube's quota is the Google project's, not the account's: none to read per account.
    publishingQuota: async () => null,
    // The Quota Calculator's current reading: videos.insert is its own bucket of calls a day (not
    // 1,600 of the 10,000 units, as older copies say), and a refused call is counted too.
    dailyUploads: {
      project: context.options.clientId,
      limit: Number(context.options.settings?.dailyUploads ?? DEFAULT_DAILY_UPLOADS),
      // Its processing is read, and a scheduled video moved or removed, with the project's units.
      unitLimit: unitSettings(context).daily,
      day: pacificDay,
      renewsAt: midnightPacificAfter,
      spentBy: isDaySpent,
    },

    async createContainer({ accessToken }, publishRequest: PublishRequest) {
      refuseProblems(platform, youtubeProblems(draftOf(publishRequest)));
      const [video] = publishRequest.media;
      if (video === undefined) throw invalidRequest(platform, 'a YouTube post is one video');
      const facts = await mediaFacts(video.url);
      const { title, tags, category_id, privacy, made_for_kids, notify_subscribers } = optionsOf(
        YOUTUBE_OPTIONS,
        publishRequest.options,
      );
      const url = new URL(context.google.url('www.googleapis.com', '/upload/youtube/v3/videos'));
      url.search = new URLSearchParams({
        uploadType: 'resumable',
        part: 'snippet,status',
        ...(notify_subscribers === false ? { notifySubscribers: 'false' } : {}),
      }).toString();
      const answer = await send(
        'POST',
        url.toString(),
        accessToken,
        {
          'content-type': 'application/json; charset=UTF-8',
          'x-upload-content-length': String(facts.size),
          'x-upload-content-type': facts.contentType,
        },
        JSON.stringify({
          snippet: {
            title,
            description: publishRequest.text ?? '',
            ...(tags === undefined || tags.length === 0 ? {} : { tags }),
            ...(category_id === undefined ? {} : { categoryId: category_id }),
          },
          // "If you set a value for this property, you must also set the status.privacyStatus
          // property to private" (publishAt, Videos resource): YouTube makes it public then.
          status:
            publishRequest.publishAt === undefined
              ? { privacyStatus: privacy ?? 'public', selfDeclaredMadeForKids: made_for_kids }
              : {
                  privacyStatus: 'private',
                  publishAt: publishRequest.publishAt,
                  selfDeclaredMadeForKids: made_for_kids,
                },
        }),
      );
      const location = header(answer, 'location') ?? '';
      const session = underBase(context.google.url('www.googleapis.com', '/upload/youtube/v3/videos'), location);
      if (session === null) {
        throw new PlatformError('transient', 'youtube answered no upload session URI of its own', { platform });
      }
      // No media URL is kept: each read that sends bytes is given one signed then.
      const upload: Upload = {
        session,
        size: facts.size,
        contentType: facts.contentType,
        privacy: privacy ?? 'public',
      };
      return { containerId: JSON.stringify(upload) };
    },

    async containerStatus(credentials, containerId, expected = {}) {
      const upload = uploadOf(containerId);
      const state = await sessionState(credentials, upload);
      if (state === null)
        return { state: 'expired', message: 'the upload session expired before the video was complete' };
      let videoId = 'videoId' in state ? state.videoId : null;
      if (videoId === null && 'held' in state) {
        videoId = await sendRest(credentials, upload, state.held, expected);
        if (videoId === null) return { state: 'in_progress', message: 'Uploading the video to YouTube.' };
      }
      return videoStatus(credentials, videoId as string, expected, upload.privacy);
    },

    async publishContainer() {
      // The upload publishes: there is no step after it.
      throw invalidRequest(platform, 'a YouTube upload publishes by itself');
    },

    async withdraw(credentials, containerId): Promise<WithdrawOutcome> {
      const state = await sessionState(credentials, uploadOf(containerId));
      if (state === null) return { outcome: 'withdrawn' };
      if (!('videoId' in state)) return { outcome: 'incomplete' };
      const video = await readVideo(credentials, state.videoId);
      if (video === null) return { outcome: 'withdrawn' };
      // Its time came first: YouTube made it public (or does so now), which stands.
      if (publishAtAhead(video.status) === null) {
        return { outcome: 'published', post: { id: state.videoId, permalink: permalink(state.videoId) } };
      }
      try {
        // Videos: delete, 204 No Content; a video already gone (404 videoNotFound) is withdrawn too.
        await context.google.apiEmpty(
          'DELETE',
          context.google.url('www.googleapis.com', '/youtube/v3/videos'),
          credentials.accessToken,
          { query: { id: state.videoId } },
        );
      } catch (error) {
        if (!(error instanceof PlatformError && error.detail.status === 404)) throw error;
      }
      return { outcome: 'withdrawn' };
    },

    async findPublished(credentials, containerId): Promise<PublishedPost | null> {
      const state = await sessionState(credentials, uploadOf(containerId));
      if (state === null || !('videoId' in state)) return null;
      return { id: state.videoId, permalink: permalink(state.videoId) };
    },
  };
}
