/** Publishing to Threads: a container per post (or per carousel item), published once Threads is done with it. */
import { containerRef } from '../meta/container-refs.ts';
import { containerSteps, createCarousel, createCarouselItems, createContainer } from '../meta/containers.ts';
import type { GraphContext } from '../meta/graph-client.ts';
import { draftOf, optionsOf, refuseProblems } from '../publish-checks.ts';
import type { PublishingCapability, PublishRequest } from '../types.ts';
import { THREADS_CONTAINERS } from './containers.ts';
import { THREADS_OPTIONS } from './definition.ts';
import { threadsProblems } from './publish-rules.ts';

const platform = 'threads';

function mediaFields(item: PublishRequest['media'][number]): Record<string, string> {
  return item.type === 'image'
    ? { media_type: 'IMAGE', image_url: item.url }
    : { media_type: 'VIDEO', video_url: item.url };
}

export function threadsPublishing({ graph, now }: GraphContext): PublishingCapability {
  return {
    checkPublish(draft) {
      return threadsProblems(draft);
    },

    async createCarouselItems(credentials, request) {
      refuseProblems(platform, threadsProblems(draftOf(request)));
      if (request.media.length < 2) return null;
      return createCarouselItems(
        (fields) => createContainer(graph, credentials, 'threads', fields),
        request.media.map(mediaFields),
      );
    },

    async createContainer(credentials, request, itemContainerIds) {
      refuseProblems(platform, threadsProblems(draftOf(request)));
      const { text, media, replyToId } = request;
      const options = optionsOf(THREADS_OPTIONS, request.options);
      // https://developers.facebook.com/docs/threads/posts: reply_control and topic_tag go on
      // the post's own container (the carousel's, not its items').
      const extra = {
        ...(replyToId !== undefined ? { reply_to_id: replyToId } : {}),
        ...(options.reply_control !== undefined ? { reply_control: options.reply_control } : {}),
        ...(options.topic_tag !== undefined ? { topic_tag: options.topic_tag } : {}),
      };
      const create = (fields: Record<string, string | undefined>) =>
        createContainer(graph, credentials, 'threads', fields);
      const kind = replyToId !== undefined ? 'r' : 'p';
      const made = now();
      const ref = (id: string) => ({ containerId: containerRef(id, kind, made, text ?? '') });
      const [first] = media;
      if (first === undefined) return ref(await create({ media_type: 'TEXT', text, ...extra }));
      if (media.length === 1) return ref(await create({ ...mediaFields(first), text, ...extra }));
      return ref(await createCarousel(create, platform, itemContainerIds, media.length, { text, ...extra }));
    },

    ...containerSteps(graph, THREADS_CONTAINERS),
  };
}
