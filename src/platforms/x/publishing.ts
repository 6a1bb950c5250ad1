/**
 * Publishing to X (`POST /2/tweets`): its media uploaded first (media.ts) as items whose
 * processing is polled, then the post naming them. The creation is the publication, so it is
 * never repeated on a doubt (a creation whose answer was lost ends with outcome_unknown: X takes
 * no idempotency key). The post's id is the container id; its link is
 * `https://x.com/{username}/status/{id}`.
 *
 * A thread: createContainer makes its first post, and its container id is the JSON
 * `{"posts": [ids made], "of": n}`; while posts are missing the container reads `finished`,
 * and publishContainer makes the rest, each a reply to the one before, recording the container
 * id after each, so a resumed publish goes on from the next post. Its link is the first post's.
 * Before each reply is sent the container is recorded with `"sending": <the try>`: a run that
 * finds it was stopped between sending a reply and recording it, so the reply may be on X. It
 * reads the account's timeline for that reply (readBack), as a run whose reply's answer was lost
 * (a network failure, a 5xx) does: found, it is recorded and the thread goes on; not shown, it
 * ends with outcome_unknown rather than sending it again, since X's not showing a post yet does
 * not prove it was never made. The mark stays until a later try (the owner's retry, after
 * checking the account) finds it: only then is the post sent again, so no run of the try that
 * made the mark, however it stops, sends that post twice.
 *
 * A later post's own media (`thread[i].media_ids`) are uploaded with the first post's, as items
 * of the post that the publishing steps record and read until processed, before the first post
 * is made; the container then names each later post's X media ids (`"media": [[ids], ...]`, one
 * list a post after the first), so a resumed run sends them with their post and uploads nothing again.
 */
import { invalidRequest } from '../errors.ts';
import { record, requiredText, str } from '../http.ts';
import { draftOf, optionsOf, refuseProblems } from '../publish-checks.ts';
import {
  type AccountCredentials,
  PlatformError,
  type PublishedPost,
  type PublishingCapability,
  type PublishRequest,
  type RequestMedium,
} from '../types.ts';
import type { XContext } from './api.ts';
import { X_OPTIONS } from './definition.ts';
import { isMediaItem, mediaIdOf, mediaStatus, uploadMedia } from './media.ts';
import { xProblems } from './publish-rules.ts';

const platform = 'x';
const POST_ID = /^\d{1,19}$/;

/** A container: one post's id, or a thread's posts made so far of its `of`. */
interface Made {
  posts: string[];
  of: number;
  /** The X media ids of each post after the first, in order; absent when none has any. */
  media?: string[][];
  /**
   * The next post was being sent when this was recorded, by this try of the target (`true`: a
   * mark from before tries were named).
   */
  sending?: true | number;
}

const isIdList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((id) => typeof id === 'string' && POST_ID.test(id));

function madeOf(containerId: string): Made {
  if (POST_ID.test(containerId)) return { posts: [containerId], of: 1 };
  let value: unknown = null;
  try {
    value = JSON.parse(containerId);
  } catch {
    // Not JSON: refused below.
  }
  const { posts, of, media, sending } = (value ?? {}) as Record<string, unknown>;
  if (
    (sending !== undefined && sending !== true && !(Number.isInteger(sending) && (sending as number) > 0)) ||
    !isIdList(posts) ||
    posts.length === 0 ||
    typeof of !== 'number' ||
    of < posts.length ||
    (media !== undefined && (!Array.isArray(media) || media.length !== of - 1 || !media.every(isIdList)))
  ) {
    throw invalidRequest(platform, `${containerId} is not an X post id`);
  }
  return {
    posts,
    of,
    ...(media === undefined ? {} : { media: media as string[][] }),
    ...(sending === undefined ? {} : { sending: sending as true | number }),
  };
}

function containerIdOf(made: Made): string {
  return made.of === 1 ? (made.posts[0] as string) : JSON.stringify(made);
}

/**
 * A post's text as X's reads and our request can both be compared: X answers every link as t.co,
 * adds one for the post's media at its end, and escapes `&`, `<` and `>` as HTML entities, so
 * links are left out, entities read back, and spaces folded.
 */
function comparable(text: string): string {
  return text
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** How far before the creation's start (our clock) X's timeline is read for it. */
const CLOCK_ALLOWANCE_MS = 60_000;

/**
 * The first post of a request, as sent: its media's X ids (the request's own media, the first
 * of the uploaded items), what it replies to, its poll, and the container a post id makes of it
 * (a thread's later posts with their uploaded media ids).
 */
function firstPostOf(request: PublishRequest, items: readonly string[]) {
  const later = threadMedia(request);
  if (items.length !== request.media.length + later.reduce((n, media) => n + media.length, 0)) {
    throw invalidRequest(platform, "a post's media is uploaded before the post");
  }
  const { reply_to: replyTo, poll, thread } = optionsOf(X_OPTIONS, request.options);
  let next = request.media.length;
  const laterIds = later.map((media) => {
    next += media.length;
    return items.slice(next - media.length, next).map(mediaIdOf);
  });
  return {
    mediaIds: items.slice(0, request.media.length).map(mediaIdOf),
    replyTo,
    poll,
    made: (id: string): Made => {
      if (!POST_ID.test(id)) throw invalidRequest(platform, `${id} is not an X post id`);
      return {
        posts: [id],
        of: 1 + (thread?.length ?? 0),
        ...(laterIds.some((ids) => ids.length > 0) ? { media: laterIds } : {}),
      };
    },
  };
}

/** A reply's text without the run of `@handle`s it opens with (on X, the accounts it answers). */
function withoutLeadingHandles(text: string): string {
  return text.replace(/^(?:@\w{1,15}\s+)+/, '');
}

/** The same posts, without the mark of a reply being sent. */
function settled({ sending: _sending, ...made }: Made): Made {
  return made;
}

/** The media of each post after the first, as the request gives them (their library ids resolved). */
function threadMedia(request: PublishRequest): RequestMedium[][] {
  const thread = optionsOf(X_OPTIONS, request.options).thread ?? [];
  return thread.map((post) =>
    (post.media_ids ?? []).map((id) => {
      const medium = request.optionMedia?.[id];
      if (medium === undefined) throw invalidRequest(platform, `the medium ${id} of a thread post was not given`);
      return medium;
    }),
  );
}

export function xPublishing(context: XContext): PublishingCapability {
  const { api } = context;

  /** The post's link, under its author's username (read from the user's own profile). */
  async function publishedPost({ accessToken }: AccountCredentials, id: string): Promise<PublishedPost> {
    const me = record((await api.call('GET', '/users/me', accessToken)).data);
    const username = str(me.username);
    return {
      id,
      permalink: username === null ? `https://x.com/i/web/status/${id}` : `https://x.com/${username}/status/${id}`,
    };
  }

  /**
   * The thread's next post (after those `made` has), if X shows it: the account's post made
   * since the one before it (GET /2/users/:id/tweets, `since_id`), replying to it
   * (`referenced_tweets` `replied_to`) with its text (X's `text` has its links as t.co: they are
   * set aside on both sides). Null when X shows none, which is not proof that none was made (a
   * post may take a moment to show), so the caller never sends it again on that answer.
   */
  async function readBack(
    { platformUserId, accessToken }: AccountCredentials,
    made: Made,
    thread: readonly { text: string }[],
  ): Promise<string | null> {
    const previous = made.posts[made.posts.length - 1] as string;
    const text = thread[made.posts.length - 1]?.text;
    if (text === undefined || !POST_ID.test(platformUserId)) return null;
    const timeline = await api.call('GET', `/users/${platformUserId}/tweets`, accessToken, {
      query: { since_id: previous, max_results: 100, 'tweet.fields': 'referenced_tweets,conversation_id' },
    });
    const found = (Array.isArray(timeline.data) ? timeline.data : []).map(record).find((tweet) => {
      const refs = Array.isArray(tweet.referenced_tweets) ? tweet.referenced_tweets.map(record) : [];
      return (
        refs.some((r) => r.type === 'replied_to' && r.id === previous) &&
        comparable(str(tweet.text) ?? '') === comparable(text)
      );
    });
    return found === undefined ? null : str(found.id);
  }

  return {
    checkPublish(draft) {
      return xProblems(draft);
    },

    async publishingQuota() {
      // X's limits show in its rate-limit headers and usage caps, read from its refusals.
      return null;
    },

    async createCarouselItems({ accessToken }, request) {
      refuseProblems(platform, xProblems(draftOf(request)));
      const later = threadMedia(request);
      if (request.media.length === 0 && later.every((media) => media.length === 0)) return null;
      // Uploaded before the first post, each read until processed: a passing failure here posts
      // nothing. Each post's media are uploaded as a post's own (a GIF alone in its post as a GIF).
      const items = request.media.length === 0 ? [] : await uploadMedia(context, accessToken, request.media);
      for (const media of later) {
        if (media.length > 0) items.push(...(await uploadMedia(context, accessToken, media)));
      }
      return items;
    },

    async createContainer({ accessToken }, request, items = []) {
      refuseProblems(platform, xProblems(draftOf(request)));
      const { mediaIds, replyTo, poll, made } = firstPostOf(request, items);
      const answer = await api.call('POST', '/tweets', accessToken, {
        json: {
          ...(request.text === undefined || request.text === '' ? {} : { text: request.text }),
          ...(mediaIds.length === 0 ? {} : { media: { media_ids: mediaIds } }),
          ...(replyTo === undefined ? {} : { reply: { in_reply_to_tweet_id: replyTo } }),
          ...(poll === undefined ? {} : { poll: { options: poll.options, duration_minutes: poll.duration_minutes } }),
        },
      });
      const id = requiredText(platform, record(answer.data).id, 'data.id');
      return { containerId: containerIdOf(made(id)) };
    },

    async findCreated({ platformUserId, accessToken }, request, items, since) {
      const { replyTo, made } = firstPostOf(request, items);
      // A reply's text opens on X with the handles it answers: compared without them on both sides.
      const asked = request.text ?? '';
      const text = comparable(replyTo === undefined ? asked : withoutLeadingHandles(asked));
      // A post without words of its own (media alone) is not told from another such post.
      if (!POST_ID.test(platformUserId) || text === '') return null;
      // X's clock is not ours: a minute's allowance, at X's granularity of seconds.
      const from = new Date(Math.floor((since.getTime() - CLOCK_ALLOWANCE_MS) / 1000) * 1000);
      const timeline = await api.call('GET', `/users/${platformUserId}/tweets`, accessToken, {
        query: {
          start_time: from.toISOString().replace('.000Z', 'Z'),
          max_results: 100,
          'tweet.fields': 'referenced_tweets,created_at',
        },
      });
      const matches = (Array.isArray(timeline.data) ? timeline.data : []).map(record).filter((tweet) => {
        const refs = Array.isArray(tweet.referenced_tweets) ? tweet.referenced_tweets.map(record) : [];
        const repliedTo = refs.find((r) => r.type === 'replied_to')?.id ?? undefined;
        const shown = str(tweet.text) ?? '';
        return (
          repliedTo === replyTo && comparable(replyTo === undefined ? shown : withoutLeadingHandles(shown)) === text
        );
      });
      // Two alike cannot tell which is this one: the doubt stands.
      const [found] = matches;
      const id = str(found?.id);
      return matches.length === 1 && id !== null ? { containerId: containerIdOf(made(id)), postId: id } : null;
    },

    async containerStatus({ accessToken }, containerId) {
      if (isMediaItem(containerId)) return await mediaStatus(context, accessToken, containerId);
      const made = madeOf(containerId);
      // Created published: nothing to wait for, but a thread's posts still to make.
      return { state: made.posts.length < made.of ? 'finished' : 'published' };
    },

    async publishContainer(credentials, containerId, progress) {
      let made = madeOf(containerId);
      const thread = optionsOf(X_OPTIONS, progress?.options).thread ?? [];
      if (made.posts.length < made.of && (progress === undefined || thread.length + 1 !== made.of)) {
        throw invalidRequest(platform, "the thread's posts are not those its first post was made for");
      }
      if (made.sending !== undefined) {
        // Unread (X's timeline did not answer): no try may take that as the post missing.
        const sent = await readBack(credentials, made, thread).catch(() => undefined);
        if (sent === undefined) {
          throw new PlatformError(
            'transient',
            `post ${made.posts.length + 1} of the thread may have been sent, and X's timeline could not be read to tell`,
            { platform },
          );
        }
        if (sent === null && (made.sending === true || made.sending === progress?.attempt)) {
          // A mark from before tries were named ends the try as it did then, cleared.
          if (made.sending === true) await progress?.record(containerIdOf(settled(made)));
          throw new PlatformError(
            'transient',
            `a run stopped after sending post ${made.posts.length + 1} of the thread and before recording X's answer, and X does not show it yet`,
            { platform },
          );
        }
        // Found: recorded. Not shown to a later try: the owner, told to check the account, asked
        // for the thread to go on, so the post is sent again below.
        made = settled(made);
        if (sent !== null) made.posts.push(sent);
        await progress?.record(containerIdOf(made));
      }
      while (made.posts.length < made.of) {
        const previous = made.posts[made.posts.length - 1] as string;
        const next = thread[made.posts.length - 1] as { text: string };
        const mediaIds = made.media?.[made.posts.length - 1] ?? [];
        await progress?.record(containerIdOf({ ...made, sending: progress.attempt }));
        let answer: Record<string, unknown>;
        try {
          answer = await api.call('POST', '/tweets', credentials.accessToken, {
            json: {
              text: next.text,
              ...(mediaIds.length === 0 ? {} : { media: { media_ids: mediaIds } }),
              reply: { in_reply_to_tweet_id: previous },
            },
          });
        } catch (error) {
          // An answer lost (a network failure, a 5xx) may be a post made: X's timeline is read
          // for it, and it is recorded if X shows it. A refusal changes nothing on X.
          const lost = !(error instanceof PlatformError) || error.kind === 'transient';
          const sent = lost ? await readBack(credentials, made, thread).catch(() => null) : null;
          if (sent === null) {
            // A refusal sent nothing: the mark goes. A lost answer keeps it (see above).
            if (!lost) await progress?.record(containerIdOf(made));
            throw error;
          }
          answer = { data: { id: sent } };
        }
        made.posts.push(requiredText(platform, record(answer.data).id, 'data.id'));
        await progress?.record(containerIdOf(made));
      }
      return publishedPost(credentials, made.posts[0] as string);
    },

    async findPublished(credentials, containerId) {
      return publishedPost(credentials, madeOf(containerId).posts[0] as string);
    },
  };
}
