/**
 * Publishing to a page: images uploaded unpublished when the "container" is made, then one feed
 * post attaching them. Facebook has no containers: the container id holds the post itself.
 */
import { textDigest } from '../meta/container-refs.ts';
import { createContainer, permalinkAfterPublish, recentPostMatching } from '../meta/containers.ts';
import { idOf } from '../meta/graph-answers.ts';
import type { GraphContext } from '../meta/graph-client.ts';
import { draftOf, optionsOf, refuseProblems } from '../publish-checks.ts';
import type { AccountCredentials, PublishedPost, PublishingCapability } from '../types.ts';
import { FACEBOOK_OPTIONS } from './definition.ts';
import { encodeContainer, type PendingPost, POST_FIELDS, pendingPost } from './post-containers.ts';
import { facebookProblems } from './publish-rules.ts';

const platform = 'facebook';

export function facebookPublishing({ graph, now }: GraphContext): PublishingCapability {
  /**
   * The post a container became, if it was published: the page's recent posts with its
   * message, published since the container was made (the feed answer is the only link
   * from a container to its post, and a crash may have lost it). Containers made before
   * they carried their time cannot be looked for: null.
   */
  async function publishedAs(credentials: AccountCredentials, post: PendingPost): Promise<PublishedPost | null> {
    if (post.at === null) return null;
    const ref = { id: '', kind: null, at: post.at, textDigest: textDigest(post.message ?? '') };
    const posts = { edge: 'posts', fields: POST_FIELDS, max: 25, textField: 'message', timeField: 'created_time' };
    return recentPostMatching(graph, credentials, ref, posts);
  }

  return {
    checkPublish(draft) {
      return facebookProblems(draft);
    },

    async createContainer(credentials, request) {
      refuseProblems(platform, facebookProblems(draftOf(request)));
      const { text, media } = request;
      const message = text !== undefined && text !== '' ? text : null;
      const photoIds: string[] = [];
      for (const image of media) {
        // Unpublished: the photos appear only once the post attaching them is published.
        photoIds.push(await createContainer(graph, credentials, 'photos', { url: image.url, published: 'false' }));
      }
      const link = optionsOf(FACEBOOK_OPTIONS, request.options).link ?? null;
      const at = Math.floor(now().getTime() / 1000);
      return { containerId: encodeContainer({ page: credentials.platformUserId, message, photoIds, link, at }) };
    },

    async containerStatus(credentials, containerId) {
      const post = pendingPost(credentials, containerId);
      return (await publishedAs(credentials, post)) === null ? { state: 'finished' } : { state: 'published' };
    },

    async publishContainer(credentials, containerId) {
      const post = pendingPost(credentials, containerId);
      const form: Record<string, string | undefined> = {
        message: post.message ?? undefined,
        link: post.link ?? undefined,
      };
      for (const [i, id] of post.photoIds.entries()) form[`attached_media[${i}]`] = JSON.stringify({ media_fbid: id });
      const id = idOf(platform, await graph.post(`/${credentials.platformUserId}/feed`, credentials.accessToken, form));
      const permalink = await permalinkAfterPublish(graph, credentials.accessToken, id, 'permalink_url');
      return { id, permalink };
    },

    async publishingQuota() {
      // Pages publish no quota to read; their limits show as throttling errors (rate_limited).
      return null;
    },

    async findPublished(credentials, containerId) {
      return publishedAs(credentials, pendingPost(credentials, containerId));
    },
  };
}
