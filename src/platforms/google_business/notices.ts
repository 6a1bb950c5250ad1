/**
 * A location's review notifications through Cloud Pub/Sub. Google publishes them only to a
 * topic of the app's project (the Notifications API's `accounts.updateNotificationSetting`,
 * NEW_REVIEW and UPDATED_REVIEW), and a push subscription of that topic POSTs each message to
 * the service with an OIDC token Google signs for the subscription's service account and
 * audience. A message names the review and nothing more: the review itself is read (v4
 * `reviews.get`) before it is stored. Without GOOGLE_BUSINESS_PUBSUB_TOPIC the account is
 * polled only. Facts: docs/platforms.md, "Google Business Profile reviews".
 */
import { createLocalJWKSet, type JSONWebKeySet, errors as joseErrors, jwtVerify } from 'jose';
import { invalidRequest, unsupported } from '../errors.ts';
import { callPlatform, list, record, str } from '../http.ts';
import { type CommentNotice, type CommentsCapability, PlatformError, type PlatformNotice } from '../types.ts';
import type { GoogleBusinessContext } from './locations.ts';

const platform = 'google_business';
/** The notifications the service asks for: "A new review has been added", "A review on the location has been updated". */
export const REVIEW_NOTIFICATIONS = ['NEW_REVIEW', 'UPDATED_REVIEW'];
/** Who signs a push's token ("iss": Google's accounts, with or without the scheme). */
const ISSUERS = ['accounts.google.com', 'https://accounts.google.com'];
/** Google's OAuth 2.0 public keys (JWKS), which sign the tokens of pushes. */
const CERTS = { host: 'www.googleapis.com', path: '/oauth2/v3/certs' };
/** Keys are read again after this long (Google rotates them; its answer says for how long they hold). */
const CERTS_MAX_AGE_MS = 3600_000;
/** A token signed by a key not known yet reads the keys again, at most this often. */
const CERTS_REREAD_MS = 60_000;
/** After a failed read of the keys, the next waits this long (the keys held meanwhile still check pushes). */
const CERTS_RETRY_MS = 10_000;
/** A review's name: `accounts/{a}/locations/{l}/reviews/{r}`, the location its first part. */
const REVIEW_NAME = /^(accounts\/[^/\s]+\/locations\/[^/\s]+)\/reviews\/[^/\s]+$/;

/** The Business Profile account a location belongs to (`accounts/{a}` of `accounts/{a}/locations/{l}`). */
function accountOf(location: string): string {
  return location.split('/').slice(0, 2).join('/');
}

type Keys = ReturnType<typeof createLocalJWKSet>;

/**
 * Google's keys, read through the adapter's own client (the sandbox's stand-in in sandbox mode),
 * kept a while. Anyone may post to the push endpoint, so a read is never made more often than
 * the bounds below allow, whatever arrives: one read at a time, shared by every push waiting on
 * it; none for CERTS_RETRY_MS after one failed, the keys held meanwhile still used.
 */
function googleKeys({ options, now }: GoogleBusinessContext) {
  let held: { keys: Keys; readAt: number } | null = null;
  let reading: Promise<Keys> | null = null;
  let failedAt = Number.NEGATIVE_INFINITY;
  async function read(): Promise<Keys> {
    const response = await callPlatform(
      platform,
      { method: 'GET', url: `${options.hostUrl(CERTS.host)}${CERTS.path}` },
      options,
    );
    const body = record(response.body);
    if (response.status !== 200 || !Array.isArray(body.keys)) {
      throw new PlatformError('transient', `Google's keys could not be read: HTTP ${response.status}`, { platform });
    }
    held = { keys: createLocalJWKSet(body as unknown as JSONWebKeySet), readAt: now().getTime() };
    return held.keys;
  }
  async function fresh(): Promise<Keys> {
    const at = now().getTime();
    if (at - failedAt < CERTS_RETRY_MS) {
      if (held !== null) return held.keys;
      throw new PlatformError('transient', "Google's keys could not be read a moment ago", { platform });
    }
    reading ??= read().finally(() => {
      reading = null;
    });
    try {
      return await reading;
    } catch (error) {
      failedAt = at;
      if (held !== null) return held.keys;
      throw error;
    }
  }
  return async (header: Parameters<Keys>[0]) => {
    const at = now().getTime();
    const keys = held !== null && at - held.readAt < CERTS_MAX_AGE_MS ? held.keys : await fresh();
    try {
      return await keys(header);
    } catch (error) {
      // A key Google started using since the keys were read.
      if (!(error instanceof joseErrors.JWKSNoMatchingKey) || held === null || at - held.readAt < CERTS_REREAD_MS) {
        throw error;
      }
      return await (await fresh())(header);
    }
  };
}

export function googleBusinessNotices(
  context: GoogleBusinessContext,
): Pick<CommentsCapability, 'subscribeNotices' | 'receiveNotices' | 'parseCommentNotices'> {
  const { google, options, now } = context;
  const settings = options.settings ?? {};
  const topic = settings.pubsubTopic;
  const serviceAccount = settings.pushServiceAccount;
  const audience =
    settings.pushAudience ??
    (options.serviceUrl === undefined
      ? undefined
      : `${options.serviceUrl.replace(/\/+$/, '')}/platform-webhooks/${platform}`);
  const keys = googleKeys(context);

  /** The push's token checked as "Authenticate push subscriptions" says: Google's signature, issuer, audience, service account. */
  async function verifyPush(authorization: string | undefined): Promise<void> {
    if (serviceAccount === undefined || audience === undefined) {
      throw invalidRequest(platform, 'pushes are not expected: GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT is not set');
    }
    const token = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(authorization ?? '')?.[1];
    if (token === undefined) throw invalidRequest(platform, 'the push has no bearer token');
    let claims: Record<string, unknown>;
    try {
      ({ payload: claims } = await jwtVerify(token, keys, {
        issuer: ISSUERS,
        audience,
        algorithms: ['RS256'],
        requiredClaims: ['exp', 'iat'],
        currentDate: now(),
      }));
    } catch (error) {
      if (error instanceof PlatformError) throw error;
      // The reason is the operator's to read (logged by the route), not the caller's.
      throw invalidRequest(platform, `the push's token is refused (${(error as Error).message})`);
    }
    if (claims.email !== serviceAccount || claims.email_verified !== true) {
      throw invalidRequest(platform, "the push's token is not for GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT");
    }
  }

  return {
    async subscribeNotices({ platformUserId, accessToken }) {
      if (topic === undefined) {
        throw unsupported(
          platform,
          'review notifications without GOOGLE_BUSINESS_PUBSUB_TOPIC (reviews are read by polling)',
        );
      }
      if (serviceAccount === undefined) {
        throw unsupported(
          platform,
          'review notifications without GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT, which their pushes are checked against (reviews are read by polling)',
        );
      }
      // One setting per Business Profile account, for all its locations: "An account will only have
      // one notification setting resource, and only one pubsub topic can be set". It is read first:
      // a topic of someone else's (the customer's own integration, another deployment) is never
      // taken over, and the kinds already asked for are kept beside the reviews.
      const name = `${accountOf(platformUserId)}/notificationSetting`;
      const url = google.url('mybusinessnotifications.googleapis.com', `/v1/${name}`);
      const current = await google.api('GET', url, accessToken);
      const theirs = str(current.pubsubTopic);
      if (theirs !== null && theirs !== '' && theirs !== topic) {
        throw unsupported(
          platform,
          `review notifications: the Business Profile account's notifications go to another topic (${theirs}), which the service does not take over (reviews are read by polling; clear that setting, or use that topic as GOOGLE_BUSINESS_PUBSUB_TOPIC)`,
        );
      }
      const asked = list(current.notificationTypes).flatMap((t) => str(t) ?? []);
      if (theirs === topic && REVIEW_NOTIFICATIONS.every((t) => asked.includes(t))) return;
      await google.api('PATCH', url, accessToken, {
        query: { updateMask: 'pubsubTopic,notificationTypes' },
        json: { name, pubsubTopic: topic, notificationTypes: [...new Set([...asked, ...REVIEW_NOTIFICATIONS])] },
      });
    },

    parseCommentNotices() {
      // A push is checked against Google's keys, which may have to be read: receiveNotices.
      throw invalidRequest(platform, 'a Pub/Sub push is checked by receiveNotices');
    },

    async receiveNotices(notice: PlatformNotice): Promise<CommentNotice[]> {
      await verifyPush(notice.headers.authorization);
      let push: Record<string, unknown>;
      try {
        push = record(JSON.parse(notice.body));
      } catch {
        // From Pub/Sub (its token checked), yet unreadable: taken, as sending it again changes nothing.
        return [];
      }
      const message = record(push.message);
      let data: Record<string, unknown>;
      try {
        data = record(JSON.parse(Buffer.from(str(message.data) ?? '', 'base64').toString('utf8')));
      } catch {
        // Not a Business Profile notification: nothing to store, and nothing to send again.
        return [];
      }
      // "The reviewName field on the notification will provide the resource name of the review"
      // (v4 Notifications; the v1 page spells it review_name).
      const review = str(data.reviewName) ?? str(data.review_name);
      const location = review === null ? undefined : REVIEW_NAME.exec(review)?.[1];
      if (review === null || location === undefined) return [];
      const published = Date.parse(str(message.publishTime) ?? str(message.publish_time) ?? '');
      return [
        {
          accountPlatformUserId: location,
          comment: {
            id: review,
            postId: location,
            parentId: null,
            authorId: null,
            authorUsername: null,
            text: '',
            createdAt: null,
            hidden: false,
            byAccount: false,
          },
          noticedAt: Number.isNaN(published) ? now() : new Date(published),
          named: true,
        },
      ];
    },
  };
}
