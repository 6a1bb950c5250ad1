/**
 * Publishing a pin (`POST /v5/pins`): an image and a carousel by their URLs (`image_url`,
 * `multiple_image_urls`), a video uploaded first (media.ts) as an item read until processed and
 * then named (`video_id`). The creation is the publication: the pin is on its board as Pinterest
 * answers. Pinterest takes no idempotency key, so a creation whose answer was lost (a network
 * failure, a 5xx), or whose run stopped during the call, is read back (`findCreated`): the board's newest pins (`GET /v5/boards/{board_id}/pins`) are
 * searched for one made since the call with the same description, title and link; found, it is
 * the pin; not shown, the try ends with `outcome_unknown` rather than pinning again. The pin's
 * id is the container id; its link is `https://www.pinterest.com/pin/{id}/`.
 */
import { list, record, requiredText, str } from '../http.ts';
import { draftOf, optionsOf, refuseProblems } from '../publish-checks.ts';
import {
  type AccountCredentials,
  PlatformError,
  type PublishedPost,
  type PublishingCapability,
  type PublishRequest,
} from '../types.ts';
import type { PinterestContext } from './api.ts';
import { pinterestBoards } from './boards.ts';
import { PINTEREST_OPTIONS } from './definition.ts';
import { isMediaItem, mediaIdOf, mediaStatus, uploadVideo } from './media.ts';
import { pinterestProblems } from './publish-rules.ts';

const platform = 'pinterest';
const PIN_ID = /^\d{1,30}$/;
/** How far back a pin read back may have been made: the call's start, less the clocks' disagreement. */
const READ_BACK_SLACK_MS = 5 * 60_000;
/** The newest pins of the board read back: a pin made during the lost call is among them. */
const READ_BACK_PINS = 25;

function publishedPin(id: string): PublishedPost {
  return { id, permalink: `https://www.pinterest.com/pin/${id}/` };
}

function checkedPinId(containerId: string): string {
  if (!PIN_ID.test(containerId)) {
    throw new PlatformError('invalid_request', `pinterest: ${containerId} is not a pin id`, { platform });
  }
  return containerId;
}

/** Create Pin's body for a request: its board and options, and its media by URL or by upload. */
function pinBody(request: PublishRequest, items: readonly string[]): Record<string, unknown> {
  const { board_id, title, link, alt_text, cover_frame_seconds } = optionsOf(PINTEREST_OPTIONS, request.options);
  const [video] = items;
  const mediaSource =
    video !== undefined
      ? {
          source_type: 'video_id',
          media_id: mediaIdOf(video),
          ...(cover_frame_seconds === undefined ? {} : { cover_image_key_frame_time: cover_frame_seconds }),
        }
      : request.media.length > 1
        ? { source_type: 'multiple_image_urls', items: request.media.map((m) => ({ url: m.url })) }
        : { source_type: 'image_url', url: request.media[0]?.url };
  return {
    board_id,
    ...(request.text === undefined || request.text === '' ? {} : { description: request.text }),
    ...(title === undefined ? {} : { title }),
    ...(link === undefined ? {} : { link }),
    ...(alt_text === undefined ? {} : { alt_text }),
    media_source: mediaSource,
  };
}

/** The pin of the board made since `since` with the body's description, title and link, if Pinterest shows one. */
async function readBack(
  { api }: PinterestContext,
  token: string,
  body: Record<string, unknown>,
  since: Date,
): Promise<string | null> {
  const answer = await api.call('GET', `/boards/${String(body.board_id)}/pins`, token, {
    query: { page_size: READ_BACK_PINS },
  });
  const same = (pin: Record<string, unknown>, field: string) => (str(pin[field]) ?? '') === (str(body[field]) ?? '');
  for (const item of list(answer.items)) {
    const pin = record(item);
    // Pinterest's times are UTC, written without an offset ("2022-03-04T18:38:59").
    const created = str(pin.created_at) ?? '';
    const made = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/.test(created) ? created : `${created}Z`);
    if (!(made >= since.getTime() - READ_BACK_SLACK_MS)) continue;
    if (same(pin, 'description') && same(pin, 'title') && same(pin, 'link')) return str(pin.id);
  }
  return null;
}

export function pinterestPublishing(context: PinterestContext): PublishingCapability {
  return {
    checkPublish(draft) {
      return pinterestProblems(draft);
    },

    async publishingQuota() {
      // Pinterest publishes no quota to read: its limits show only as 429 refusals.
      return null;
    },

    async createCarouselItems({ accessToken }, request) {
      refuseProblems(platform, pinterestProblems(draftOf(request)));
      const [video] = request.media;
      if (video === undefined || video.type !== 'video') return null;
      return [await uploadVideo(context, accessToken, video)];
    },

    async createContainer({ accessToken }: AccountCredentials, request, items = []) {
      refuseProblems(platform, pinterestProblems(draftOf(request)));
      if (request.media[0]?.type === 'video' && items.length !== 1) {
        throw new PlatformError('invalid_request', "pinterest: a pin's video is uploaded before the pin", { platform });
      }
      const pin = await context.api.call('POST', '/pins', accessToken, { json: pinBody(request, items) });
      return { containerId: checkedPinId(requiredText(platform, pin.id, 'id')) };
    },

    // A creation whose answer was lost, or whose run stopped during it, may be on the board:
    // found there, it is the pin; else the caller ends with outcome_unknown.
    async findCreated({ accessToken }, request, items, since) {
      const found = await readBack(context, accessToken, pinBody(request, items), since);
      return found === null || !PIN_ID.test(found) ? null : { containerId: found, postId: found };
    },

    async containerStatus({ accessToken }, containerId) {
      if (isMediaItem(containerId)) return await mediaStatus(context, accessToken, containerId);
      checkedPinId(containerId);
      // The pin was made on its board: there is nothing to wait for.
      return { state: 'published' };
    },

    async publishContainer(_credentials, containerId) {
      return publishedPin(checkedPinId(containerId));
    },

    async findPublished(_credentials, containerId) {
      return publishedPin(checkedPinId(containerId));
    },

    optionValues: { board_id: (credentials) => pinterestBoards(context, credentials) },
  };
}
