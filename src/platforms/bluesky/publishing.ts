/**
 * Publishing on Bluesky: a post is one record of app.bsky.feed.post in the account's repository
 * (com.atproto.repo.createRecord). Its key (a TID) is chosen when the container is made, before
 * any call, and is the container's id: a publish whose answer was lost is settled by reading that
 * record back (com.atproto.repo.getRecord), and a second create of the same key is refused by the
 * PDS rather than making a second post.
 */
import { invalidRequest } from '../errors.ts';
import { str } from '../http.ts';
import type { AccountCredentials, PublishedPost, PublishingCapability } from '../types.ts';
import { PlatformError } from '../types.ts';
import { type BlueskyContext, platform } from './api.ts';
import { facetsOf, mentionedHandles } from './facets.ts';
import { handleDid } from './identity.ts';
import { blueskyPublishRules } from './publish-rules.ts';
import { openSession } from './session.ts';
import { newTid, TID } from './tid.ts';

const COLLECTION = 'app.bsky.feed.post';

/** The container: the record's key and what it will hold. */
interface PostContainer {
  rkey: string;
  text: string;
  langs?: string[];
}

function containerOf(id: string): PostContainer {
  try {
    const parsed = JSON.parse(Buffer.from(id, 'base64url').toString('utf8')) as PostContainer;
    if (TID.test(parsed.rkey) && typeof parsed.text === 'string') return parsed;
  } catch {
    // Below.
  }
  throw invalidRequest(platform, `not a container of this adapter: ${id}`);
}

/** "app.bsky.feed.post": a post's link on bsky.app. */
export function permalinkOf(did: string, rkey: string): string {
  return `https://bsky.app/profile/${did}/post/${rkey}`;
}

export function blueskyPublishing(context: BlueskyContext): PublishingCapability {
  const { api, now } = context;

  function published(did: string, rkey: string): PublishedPost {
    return { id: `at://${did}/${COLLECTION}/${rkey}`, permalink: permalinkOf(did, rkey) };
  }

  async function readBack(credentials: AccountCredentials, rkey: string): Promise<PublishedPost | null> {
    const session = openSession(credentials.accessToken);
    try {
      await api.xrpc(session, 'GET', 'com.atproto.repo.getRecord', {
        query: { repo: credentials.platformUserId, collection: COLLECTION, rkey },
      });
      return published(credentials.platformUserId, rkey);
    } catch (error) {
      if (
        error instanceof PlatformError &&
        error.kind === 'invalid_request' &&
        error.detail.code === 'RecordNotFound'
      ) {
        return null;
      }
      throw error;
    }
  }

  return {
    checkPublish: blueskyPublishRules,
    async publishingQuota() {
      return null;
    },
    async createContainer(_credentials, request) {
      const langs = request.options?.languages;
      const container: PostContainer = {
        rkey: newTid(now()),
        text: request.text ?? '',
        ...(Array.isArray(langs) ? { langs: langs.map(String) } : {}),
      };
      return { containerId: Buffer.from(JSON.stringify(container)).toString('base64url') };
    },
    async containerStatus() {
      return { state: 'finished' };
    },
    async publishContainer(credentials, containerId) {
      const container = containerOf(containerId);
      const session = openSession(credentials.accessToken);
      const dids = new Map<string, string>();
      for (const handle of new Set(mentionedHandles(container.text))) {
        const did = await handleDid(api, handle).catch(() => null);
        if (did !== null) dids.set(handle, did);
      }
      const facets = facetsOf(container.text, dids);
      const record = {
        $type: COLLECTION,
        text: container.text,
        createdAt: now().toISOString(),
        ...(facets.length === 0 ? {} : { facets }),
        ...(container.langs === undefined ? {} : { langs: container.langs }),
      };
      try {
        const answer = await api.xrpc(session, 'POST', 'com.atproto.repo.createRecord', {
          json: { repo: credentials.platformUserId, collection: COLLECTION, rkey: container.rkey, record },
        });
        if (str(answer.uri) === null)
          throw new PlatformError('transient', 'bluesky answered a create without its uri', { platform });
        return published(credentials.platformUserId, container.rkey);
      } catch (error) {
        // The key is taken: an earlier try's create went through (its answer was lost), so the post is there.
        if (error instanceof PlatformError && error.kind === 'invalid_request') {
          const found = await readBack(credentials, container.rkey);
          if (found !== null) return found;
        }
        throw error;
      }
    },
    async findPublished(credentials, containerId) {
      return await readBack(credentials, containerOf(containerId).rkey);
    },
  };
}
