/**
 * Publishing to X (`POST /2/tweets`): the creation is the publication, so it is never repeated
 * on a doubt (a creation whose answer was lost ends with outcome_unknown: X takes no
 * idempotency key). The post's id is the container id; its link is
 * `https://x.com/{username}/status/{id}`.
 */
import { invalidRequest } from '../errors.ts';
import { record, requiredText, str } from '../http.ts';
import { draftOf, optionsOf, refuseProblems } from '../publish-checks.ts';
import type { AccountCredentials, PublishedPost, PublishingCapability } from '../types.ts';
import type { XContext } from './api.ts';
import { X_OPTIONS } from './definition.ts';
import { uploadImage } from './media.ts';
import { xProblems } from './publish-rules.ts';

const platform = 'x';
const POST_ID = /^\d{1,19}$/;

function checkedPostId(containerId: string): string {
  if (!POST_ID.test(containerId)) throw invalidRequest(platform, `${containerId} is not an X post id`);
  return containerId;
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

  return {
    checkPublish(draft) {
      return xProblems(draft);
    },

    async publishingQuota() {
      // X's limits show in its rate-limit headers and usage caps, read from its refusals.
      return null;
    },

    async createContainer({ accessToken }, request) {
      refuseProblems(platform, xProblems(draftOf(request)));
      const { reply_to: replyTo, poll } = optionsOf(X_OPTIONS, request.options);
      const mediaIds: string[] = [];
      for (const item of request.media) mediaIds.push(await uploadImage(context, accessToken, item.url));
      const answer = await api.call('POST', '/tweets', accessToken, {
        json: {
          ...(request.text === undefined || request.text === '' ? {} : { text: request.text }),
          ...(mediaIds.length === 0 ? {} : { media: { media_ids: mediaIds } }),
          ...(replyTo === undefined ? {} : { reply: { in_reply_to_tweet_id: replyTo } }),
          ...(poll === undefined ? {} : { poll: { options: poll.options, duration_minutes: poll.duration_minutes } }),
        },
      });
      return { containerId: requiredText(platform, record(answer.data).id, 'data.id') };
    },

    async containerStatus(_credentials, containerId) {
      checkedPostId(containerId);
      // Created published: nothing to wait for.
      return { state: 'published' };
    },

    async publishContainer(credentials, containerId) {
      return publishedPost(credentials, checkedPostId(containerId));
    },

    async findPublished(credentials, containerId) {
      return publishedPost(credentials, checkedPostId(containerId));
    },
  };
}
