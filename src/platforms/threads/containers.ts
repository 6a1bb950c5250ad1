/** Where Threads keeps each container step, for its posts and its replies alike. */
import type { ContainerApi } from '../meta/containers.ts';

export const THREADS_CONTAINERS: ContainerApi = {
  status: { code: 'status', reason: 'error_message', label: 'Threads' },
  publishEdge: 'threads_publish',
  // https://developers.facebook.com/docs/threads/overview#rate-limiting: 250 posts in a
  // moving 24 hours, a carousel counting as one.
  quotaEdge: 'threads_publishing_limit',
  // The account's recent posts (or its replies, for a reply) with the same text.
  postsOf: (ref) => ({ edge: ref.kind === 'r' ? 'replies' : 'threads', textField: 'text' }),
};
