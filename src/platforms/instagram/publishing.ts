/** Publishing to Instagram: a container per post (or per carousel item), published once Instagram is done with it. */
import { invalidRequest } from '../errors.ts';
import { containerRef } from '../meta/container-refs.ts';
import {
  type ContainerApi,
  containerSteps,
  createCarousel,
  createCarouselItems,
  createContainer,
} from '../meta/containers.ts';
import { idOf } from '../meta/graph-answers.ts';
import type { GraphContext } from '../meta/graph-client.ts';
import { draftOf, optionsOf, refuseProblems } from '../publish-checks.ts';
import type { PublishingCapability, PublishRequest } from '../types.ts';
import { FIRST_COMMENT, INSTAGRAM_OPTIONS } from './definition.ts';
import { instagramProblems } from './publish-rules.ts';

const platform = 'instagram';

const INSTAGRAM_CONTAINERS: ContainerApi = {
  // `status` says why for an ERROR (its subcode) or an EXPIRED container.
  status: { code: 'status_code', reason: 'status', label: 'Instagram' },
  publishEdge: 'media_publish',
  // https://developers.facebook.com/docs/instagram-platform/content-publishing#rate-limit
  quotaEdge: 'content_publishing_limit',
  // The account's recent media with the same caption. A story is not among them, and the
  // stories edge (IG User Stories reference, updated Jan 21, 2025) is documented for Facebook
  // Login tokens on graph.facebook.com only: with Instagram Login no documented read lists it.
  postsOf: (ref) =>
    ref.kind === 's'
      ? {
          unfindable:
            "Instagram documents no read of an account's stories for Instagram Login, so its id and link are unknown",
        }
      : { edge: 'media', textField: 'caption' },
};

function url(item: PublishRequest['media'][number]) {
  return item.type === 'image' ? { image_url: item.url } : { video_url: item.url };
}

/** A feed post of several media: a carousel, whose items are containers of their own. */
function isCarousel(request: PublishRequest): boolean {
  return request.media.length > 1 && (optionsOf(INSTAGRAM_OPTIONS, request.options).type ?? 'feed') !== 'story';
}

export function instagramPublishing({ graph, now }: GraphContext): PublishingCapability {
  return {
    checkPublish(draft) {
      return instagramProblems(draft);
    },

    async createCarouselItems(credentials, request) {
      refuseProblems(platform, instagramProblems(draftOf(request)));
      if (!isCarousel(request)) return null;
      const items = request.media.map((item) =>
        item.type === 'image' ? url(item) : { ...url(item), media_type: 'VIDEO' },
      );
      return createCarouselItems((fields) => createContainer(graph, credentials, 'media', fields), items);
    },

    async createContainer(credentials, request, itemContainerIds) {
      refuseProblems(platform, instagramProblems(draftOf(request)));
      const { text, media } = request;
      const type = optionsOf(INSTAGRAM_OPTIONS, request.options).type ?? 'feed';
      const create = (fields: Record<string, string | undefined>) =>
        createContainer(graph, credentials, 'media', fields);
      const made = now();
      const [first] = media as [(typeof media)[number], ...typeof media];
      if (type === 'story') {
        // Stories take no caption (the Content Publishing guide's story parameters).
        return { containerId: containerRef(await create({ ...url(first), media_type: 'STORIES' }), 's', made, '') };
      }
      const caption = text ?? '';
      if (media.length === 1) {
        // A single video goes as a reel: Instagram retired VIDEO for feed posts in 2023.
        const fields = first.type === 'image' ? url(first) : { ...url(first), media_type: 'REELS' };
        const kind = first.type === 'image' ? 'f' : 'r';
        return { containerId: containerRef(await create({ ...fields, caption }), kind, made, caption) };
      }
      const id = await createCarousel(create, platform, itemContainerIds, media.length, { caption });
      return { containerId: containerRef(id, 'f', made, caption) };
    },

    ...containerSteps(graph, INSTAGRAM_CONTAINERS),

    afterPublish: {
      ...FIRST_COMMENT,
      async run({ accessToken }, postId, options) {
        const text = optionsOf(INSTAGRAM_OPTIONS, options).first_comment ?? '';
        if (text.trim() === '') throw invalidRequest(platform, 'a comment needs text');
        // "Create a comment on a media object": POST /{ig-media-id}/comments with message
        // (https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/comment-moderation).
        return { id: idOf(platform, await graph.post(`/${postId}/comments`, accessToken, { message: text })) };
      },
    },
  };
}
