/**
 * Publishing to TikTok (Direct Post, PULL_FROM_URL): the creator's options read right before
 * posting, then the post itself, which TikTok publishes by itself once it has the video.
 */
import { list, num, requiredText, str } from '../http.ts';
import { draftOf, optionsOf, refuseProblems } from '../publish-checks.ts';
import { PlatformError, type PublishingCapability } from '../types.ts';
import type { TikTokContext } from './api.ts';
import { TIKTOK_OPTIONS } from './definition.ts';
import { creatorInfo, postState, publishedPost } from './post-status.ts';
import { durationProblems, tiktokProblems } from './publish-rules.ts';

const platform = 'tiktok';

export function tiktokPublishing(context: TikTokContext): PublishingCapability {
  return {
    checkPublish(draft) {
      return tiktokProblems(draft);
    },

    async createContainer({ accessToken }, request) {
      refuseProblems(platform, tiktokProblems(draftOf(request)));
      const options = optionsOf(TIKTOK_OPTIONS, request.options);
      // refuseProblems made sure there is one.
      const privacy = options.privacy_level as string;
      // TikTok requires asking which privacy levels this creator may use right before posting.
      const creator = await creatorInfo(context, accessToken);
      const offered = list(creator.privacy_level_options)
        .map(str)
        .filter((o): o is string => o !== null);
      if (!offered.includes(privacy)) {
        const platformMessage = `privacy_level ${privacy} is not among the creator's privacy_level_options (${offered.join(', ') || 'none'})`;
        throw new PlatformError('invalid_request', `tiktok: ${platformMessage}`, {
          platform,
          code: 'privacy_level_option_mismatch',
          platformMessage,
        });
      }
      refuseProblems(platform, durationProblems(request, num(creator.max_video_post_duration_sec)));
      // https://developers.tiktok.com/doc/content-posting-api-reference-direct-post: the
      // interaction switches are post_info booleans; a creator who turned one off in the
      // app has it off whatever the post says. The reference marks brand_content_toggle
      // required (though its own example leaves it out), and brand_organic_toggle most
      // likely too (the Photo reference marks both): both are always sent, false when not chosen.
      const data = await context.api.data('POST', '/v2/post/publish/video/init/', accessToken, {
        json: {
          post_info: {
            title: request.text ?? '',
            privacy_level: privacy,
            disable_comment: options.disable_comment === true || creator.comment_disabled === true,
            disable_duet: options.disable_duet === true || creator.duet_disabled === true,
            disable_stitch: options.disable_stitch === true || creator.stitch_disabled === true,
            brand_content_toggle: options.brand_content_toggle === true,
            brand_organic_toggle: options.brand_organic_toggle === true,
          },
          source_info: { source: 'PULL_FROM_URL', video_url: (request.media[0] as { url: string }).url },
        },
      });
      return { containerId: `${privacy}:${requiredText(platform, data.publish_id, 'publish_id')}` };
    },

    async containerStatus({ accessToken }, containerId) {
      const { state, status, data } = await postState(context, accessToken, containerId);
      if (state === 'in_progress') return { state, message: `TikTok is still processing the video (${status})` };
      if (state === 'awaiting_permalink') {
        return {
          state,
          message:
            "published; waiting for TikTok's moderation of the public post, which may take hours, to give its public id and link",
        };
      }
      const reason = str(data.fail_reason);
      return state === 'failed' && reason ? { state, message: reason } : { state };
    },

    async publishContainer({ accessToken }, containerId) {
      // TikTok publishes by itself once the video is processed: publishing is waiting for that.
      const post = await postState(context, accessToken, containerId);
      if (post.state === 'failed') {
        const reason = str(post.data.fail_reason) || 'unknown reason';
        throw new PlatformError('invalid_request', `tiktok: the post failed: ${reason}`, {
          platform,
          code: 'FAILED',
          platformMessage: reason,
        });
      }
      if (post.state !== 'published') {
        const why =
          post.state === 'awaiting_permalink' ? "waiting for TikTok's moderation, which may take hours" : post.status;
        // TikTok answered the read (200): nothing of this call is on its way to TikTok.
        throw new PlatformError('transient', `tiktok: the post is not finished yet (${why})`, {
          platform,
          status: 200,
        });
      }
      return publishedPost(context, accessToken, post.publicId, post.publishId);
    },

    async publishingQuota() {
      // TikTok publishes no quota to read: its caps (posts per creator a day, users per
      // unaudited app) show only as refusals, which come back rate_limited.
      return null;
    },

    async findPublished({ accessToken }, containerId) {
      // The publish_id names the post: its status says whether it became one (a public post still
      // in moderation is one, known by its publish_id until TikTok gives its public id).
      const post = await postState(context, accessToken, containerId);
      return post.state === 'published' || post.state === 'awaiting_permalink'
        ? publishedPost(context, accessToken, post.publicId, post.publishId)
        : null;
    },
  };
}
