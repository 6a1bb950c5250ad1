/**
 * Local posts (Google My Business API v4, accounts.locations.localPosts): creating one is the
 * publication, then Google reviews it (`state` PROCESSING) and shows it (LIVE) or refuses it
 * (REJECTED), which is read with localPosts.get. A create whose answer was lost, or whose run
 * stopped during the call, is looked for among the location's local posts (localPosts.list,
 * `findCreated`) before the try ends as outcome_unknown.
 */
import { invalidRequest } from '../errors.ts';
import { list, record, requiredText, str } from '../http.ts';
import { draftOf, optionsOf, refuseProblems } from '../publish-checks.ts';
import {
  type AccountCredentials,
  type ContainerStatus,
  PlatformError,
  type PublishingCapability,
  type PublishRequest,
} from '../types.ts';
import { GBP_POST_TYPES, GOOGLE_BUSINESS_OPTIONS } from './definition.ts';
import type { GoogleBusinessContext } from './locations.ts';
import { googleBusinessProblems, type LocalTime, localTime } from './publish-rules.ts';

const platform = 'google_business';
/** localPosts.list's largest page ("The maximum page size is 100"). */
const LIST_PAGE = 100;
/** Pages of local posts read back at most for a create whose answer was lost. */
const READ_BACK_PAGES = 5;
/** How far before the create a post's createTime may read, for the clocks' difference. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** A Business Profile API body's LocalPost, from the request. */
function localPostBody(request: PublishRequest): Record<string, unknown> {
  const { type = 'update', event, offer, call_to_action } = optionsOf(GOOGLE_BUSINESS_OPTIONS, request.options);
  const schedule = (from: LocalTime, to: LocalTime) => ({
    startDate: from.date,
    endDate: to.date,
    ...(from.time === null || to.time === null
      ? {}
      : { startTime: { ...from.time, seconds: 0, nanos: 0 }, endTime: { ...to.time, seconds: 0, nanos: 0 } }),
  });
  const start = event === undefined ? null : localTime(event.start);
  const end = event === undefined ? null : localTime(event.end);
  return {
    topicType: GBP_POST_TYPES[type],
    ...(request.text === undefined || request.text === '' ? {} : { summary: request.text }),
    ...(request.media.length === 0
      ? {}
      : { media: request.media.map((m) => ({ mediaFormat: 'PHOTO', sourceUrl: m.url })) }),
    ...(event === undefined || start === null || end === null
      ? {}
      : { event: { title: event.title, schedule: schedule(start, end) } }),
    ...(offer === undefined
      ? {}
      : {
          offer: {
            ...(offer.coupon_code === undefined ? {} : { couponCode: offer.coupon_code }),
            ...(offer.redeem_url === undefined ? {} : { redeemOnlineUrl: offer.redeem_url }),
            ...(offer.terms === undefined ? {} : { termsConditions: offer.terms }),
          },
        }),
    ...(call_to_action === undefined
      ? {}
      : {
          callToAction: {
            actionType: call_to_action.type,
            ...(call_to_action.url === undefined ? {} : { url: call_to_action.url }),
          },
        }),
  };
}

/** Whether a listed local post is the one `body` asked for: the same kind, summary and event title. */
function sameAsAsked(post: Record<string, unknown>, body: Record<string, unknown>): boolean {
  const eventTitle = (value: unknown) => str(record(value).title);
  return (
    str(post.topicType) === body.topicType &&
    (str(post.summary) ?? '') === ((body.summary as string | undefined) ?? '') &&
    eventTitle(post.event) === eventTitle(body.event)
  );
}

export function googleBusinessPublishing(context: GoogleBusinessContext): PublishingCapability {
  const { google } = context;
  const v4 = (path: string) => google.url('mybusiness.googleapis.com', `/v4/${path}`);

  /** A local post as localPosts.get answers it; null when Google has none by that name (404). */
  async function readPost(accessToken: string, name: string): Promise<Record<string, unknown> | null> {
    try {
      return await google.api('GET', v4(name), accessToken);
    } catch (error) {
      if (error instanceof PlatformError && error.detail.status === 404) return null;
      throw error;
    }
  }

  /**
   * The local post a create whose answer was lost made, if Google lists it: one of the same kind,
   * summary and event title made since just before the create. Null when none is listed.
   */
  async function madeSince(
    { platformUserId, accessToken }: AccountCredentials,
    body: Record<string, unknown>,
    since: Date,
  ): Promise<string | null> {
    let pageToken: string | null = null;
    for (let n = 0; n < READ_BACK_PAGES; n += 1) {
      const answer = await google.api('GET', v4(`${platformUserId}/localPosts`), accessToken, {
        query: { pageSize: LIST_PAGE, ...(pageToken === null ? {} : { pageToken }) },
      });
      for (const item of list(answer.localPosts)) {
        const post = record(item);
        const made = Date.parse(str(post.createTime) ?? '');
        if (Number.isFinite(made) && made >= since.getTime() - CLOCK_SKEW_MS && sameAsAsked(post, body)) {
          return str(post.name);
        }
      }
      pageToken = str(answer.nextPageToken);
      if (pageToken === null || pageToken === '') break;
    }
    return null;
  }

  function statusOf(post: Record<string, unknown> | null): ContainerStatus {
    if (post === null) return { state: 'failed', message: 'Google no longer has the local post (deleted)' };
    switch (str(post.state)) {
      case 'LIVE':
        return { state: 'published' };
      case 'REJECTED':
        // Google's whole reason: "This post was rejected for content policy violation" (LocalPostState).
        return { state: 'failed', message: 'Google rejected the local post (REJECTED: content policy violation)' };
      default:
        return { state: 'in_progress', message: 'Google is reviewing the local post.' };
    }
  }

  return {
    checkPublish: googleBusinessProblems,
    // Google documents no publishing allowance per location to read.
    publishingQuota: async () => null,

    async createContainer(credentials, request) {
      refuseProblems(platform, googleBusinessProblems(draftOf(request)));
      const made = await google.api('POST', v4(`${credentials.platformUserId}/localPosts`), credentials.accessToken, {
        json: localPostBody(request),
      });
      return { containerId: requiredText(platform, made.name, 'name') };
    },

    // A create whose answer was lost, or whose run stopped during it, may have made the post:
    // Google lists it then, and it is taken rather than made again.
    async findCreated(credentials, request, _items, since) {
      const found = await madeSince(credentials, localPostBody(request), since);
      return found === null ? null : { containerId: found, postId: found };
    },

    async containerStatus({ accessToken }, containerId) {
      return statusOf(await readPost(accessToken, containerId));
    },

    async publishContainer() {
      // The create publishes: there is no step after it.
      throw invalidRequest(platform, 'a local post is published by its creation');
    },

    async findPublished({ accessToken }, containerId) {
      const post = await readPost(accessToken, containerId);
      if (post === null || str(post.state) !== 'LIVE') return null;
      // searchUrl: "The link to the local post in Google search".
      return { id: containerId, permalink: str(post.searchUrl) };
    },
  };
}
