/**
 * Publishing to a LinkedIn organization page or the member's own profile (Posts API, the
 * account's URN as `author`, its media uploaded with it as `owner`): its images or video uploaded first
 * (Images API, Videos API) as items whose processing is polled, then, once each is AVAILABLE, the post naming
 * them, created as PUBLISHED: the creation is the publication, so it is never repeated on a
 * doubt. The post's URN (the `x-restli-id` header) is the container id.
 */
import { header } from '../http.ts';
import { draftOf, optionsOf, refuseProblems } from '../publish-checks.ts';
import { PlatformError, type PublishedPost, type PublishingCapability } from '../types.ts';
import type { LinkedInContext } from './api.ts';
import { authorOf } from './author.ts';
import { LINKEDIN_OPTIONS } from './definition.ts';
import { littleText } from './little-text.ts';
import { linkedinProblems } from './publish-rules.ts';
import { isMediaUrn, mediaStatus, uploadFile, uploadVideo } from './uploads.ts';

const platform = 'linkedin';
const POST_URN = /^urn:li:(?:share|ugcPost):\d+$/;

/** A post's link: LinkedIn's feed page of the post's URN. */
function publishedPost(urn: string): PublishedPost {
  return { id: urn, permalink: `https://www.linkedin.com/feed/update/${urn}` };
}

function checkedPostUrn(containerId: string): string {
  if (!POST_URN.test(containerId)) {
    throw new PlatformError('invalid_request', `linkedin: ${containerId} is not a post URN`, { platform });
  }
  return containerId;
}

export function linkedinPublishing(context: LinkedInContext): PublishingCapability {
  return {
    checkPublish(draft) {
      return linkedinProblems(draft);
    },

    async publishingQuota() {
      // LinkedIn publishes no quota to read: its daily limits show only as 429 refusals.
      return null;
    },

    async createCarouselItems({ platformUserId, accessToken }, request) {
      refuseProblems(platform, linkedinProblems(draftOf(request)));
      if (request.media.length === 0) return null;
      // Uploaded before the post, each read until AVAILABLE: a passing failure here posts nothing.
      // The media's owner is the post's author, the member or the organization.
      const author = authorOf(platformUserId).urn;
      const uploaded: string[] = [];
      for (const item of request.media) {
        uploaded.push(
          item.type === 'video'
            ? await uploadVideo(context, accessToken, author, item)
            : await uploadFile(context, accessToken, author, item.type, item.url),
        );
      }
      return uploaded;
    },

    async createContainer({ platformUserId, accessToken }, request, items = []) {
      refuseProblems(platform, linkedinProblems(draftOf(request)));
      if (items.length !== request.media.length) {
        throw new PlatformError('invalid_request', "linkedin: a post's media is uploaded before the post", {
          platform,
        });
      }
      const author = authorOf(platformUserId).urn;
      const [single] = items;
      const title = optionsOf(LINKEDIN_OPTIONS, request.options).document_title;
      const content =
        items.length > 1
          ? { multiImage: { images: items.map((id) => ({ id })) } }
          : single !== undefined
            ? { media: { id: single, ...(typeof title === 'string' ? { title } : {}) } }
            : undefined;
      const response = await context.api.rest('POST', '/posts', accessToken, {
        json: {
          author,
          commentary: littleText(request.text ?? ''),
          visibility: 'PUBLIC',
          distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
          ...(content === undefined ? {} : { content }),
          lifecycleState: 'PUBLISHED',
          isReshareDisabledByAuthor: false,
        },
      });
      const urn = header(response, 'x-restli-id');
      if (urn === undefined || !POST_URN.test(urn)) {
        // The post exists, but its id is unknown: the caller ends with outcome_unknown.
        throw new PlatformError('transient', 'linkedin created the post without naming it (no x-restli-id)', {
          platform,
          status: response.status,
        });
      }
      return { containerId: urn };
    },

    async containerStatus({ accessToken }, containerId) {
      if (isMediaUrn(containerId)) return await mediaStatus(context, accessToken, containerId);
      checkedPostUrn(containerId);
      // The post was created PUBLISHED: there is nothing to wait for.
      return { state: 'published' };
    },

    async publishContainer(_credentials, containerId) {
      return publishedPost(checkedPostUrn(containerId));
    },

    async findPublished(_credentials, containerId) {
      return publishedPost(checkedPostUrn(containerId));
    },
  };
}
