/** Instagram's and Threads' publishing containers: their media, their processing, publishing one too soon. */

import { DAY_MS } from '../../days.ts';
import type { SandboxAnswer } from '../answers.ts';
import type { Store } from '../platform.ts';
import type { SandboxContainer } from '../schema.ts';
import { CONTAINER_PROCESSING_SECONDS, findContainer } from '../store/containers.ts';
import { waitMs } from '../store/setting-kinds.ts';
import { type SettingValues, settingIn } from '../store/settings.ts';
import { graphAnswer } from './errors.ts';

/** The media URLs a publishing container holds: its own, or its carousel items', in order. */
export async function containerMediaUrls(store: Store, container: SandboxContainer): Promise<string[]> {
  const children = container.request.media_type === 'CAROUSEL' ? String(container.request.children ?? '') : '';
  const ids = children.split(',').filter((id) => id !== '');
  const holders = ids.length === 0 ? [container] : await Promise.all(ids.map((id) => findContainer(store, id)));
  return holders
    .map((c) => c?.request.image_url ?? c?.request.video_url)
    .filter((url): url is string => typeof url === 'string');
}

/**
 * Whether a publishing container is still processing (`container_processing_seconds`, as the
 * call's `settings` hold it, on the sandbox clock).
 */
export function stillProcessing(store: Store, settings: SettingValues, container: SandboxContainer): boolean {
  const processing = waitMs(settingIn(settings, CONTAINER_PROCESSING_SECONDS));
  return store.now().getTime() - container.createdAt.getTime() < processing;
}

/**
 * Publishing a container still processing: Instagram's error-code reference names code
 * 9007, subcode 2207027 ("The media is not ready for publishing, please wait for a
 * moment"); Threads documents none of its own, so it answers the same.
 */
export function notReadyToPublish(): SandboxAnswer {
  return graphAnswer(400, 9007, 'Media ID is not available', { subcode: 2207027 });
}

/**
 * A carousel naming an item that is not `FINISHED`. Instagram's content publishing guide and
 * Threads' posts docs make a carousel's container of item containers only once each one's
 * status is FINISHED; neither documents an error of its own for an item that is not. An item
 * still `IN_PROGRESS` gets what publishing an unfinished container gets (code 9007, subcode
 * 2207027, "the media is not ready"); one that failed, expired or was published is a bad
 * parameter (code 100) naming it and its status.
 */
export function unfinishedCarouselItem(id: string, status: string): SandboxAnswer {
  if (status === 'IN_PROGRESS') {
    return graphAnswer(400, 9007, `The carousel item ${id} is not ready: its status is IN_PROGRESS`, {
      subcode: 2207027,
    });
  }
  return graphAnswer(400, 100, `(#100) The carousel item ${id} cannot be used: its status is ${status}`);
}

/**
 * "Containers expire after 24 hours" (IG User Media reference, General Limitations); Threads'
 * containers not published within a day expire too.
 */
const CONTAINER_LIFETIME_MS = DAY_MS;

export function containerExpired(store: Store, container: SandboxContainer): boolean {
  return store.now().getTime() - container.createdAt.getTime() >= CONTAINER_LIFETIME_MS;
}

/**
 * Publishing past the daily quota: Instagram's error-code reference names code 9, subcode
 * 2207042; Threads documents no error of its own for it, so it answers the same.
 */
export function publishQuotaReached(message: string): SandboxAnswer {
  return graphAnswer(400, 9, message, { subcode: 2207042 });
}
