/**
 * Google Business Profile (a Google user's business locations, their local posts) as data.
 * Facts: docs/platforms.md, "Google Business Profile".
 */
import { Type } from 'typebox';
import { type MetricDescriptions, metricsOf, type PlatformDefinition, platformSetting } from '../definition.ts';
import { CODE_POINTS } from '../text-counting.ts';

/** The post's kinds in the API's terms, with Google's `topicType` for each (LocalPostTopicType). */
export const GBP_POST_TYPES = { update: 'STANDARD', event: 'EVENT', offer: 'OFFER' } as const;
export type GbpPostType = keyof typeof GBP_POST_TYPES;

/** A call to action's buttons (CallToAction.actionType), as the LocalPost resource lists them; GET_OFFER is deprecated there. */
export const GBP_ACTION_TYPES = ['BOOK', 'ORDER', 'SHOP', 'LEARN_MORE', 'SIGN_UP', 'CALL'] as const;

/** A local date, or a local date and time of day (the location's own time: LocalPostEvent has no time zone). */
const LOCAL_TIME = '^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2})?$';

/** What a local post takes beside its summary (the post's text): `platforms.google_business`. */
export const GOOGLE_BUSINESS_OPTIONS = Type.Object(
  {
    type: Type.Optional(
      Type.Enum(Object.keys(GBP_POST_TYPES) as GbpPostType[], {
        title: 'Post type',
        description:
          'What the local post is (`topicType`): `update` (STANDARD, the default), `event` (EVENT: needs `event`) or `offer` (OFFER: needs `event` for its title and dates, and takes `offer`).',
      }),
    ),
    event: Type.Optional(
      Type.Object(
        {
          title: Type.String({
            minLength: 1,
            title: 'Title',
            description: "The event's or offer's title (`event.title`), at most 58 characters.",
          }),
          start: Type.String({
            pattern: LOCAL_TIME,
            title: 'Starts',
            description:
              "When it starts, in the location's own time: `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM` (`event.schedule.startDate`, `startTime`).",
          }),
          end: Type.String({
            pattern: LOCAL_TIME,
            title: 'Ends',
            description:
              "When it ends, in the location's own time, after it starts: `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM` (`event.schedule.endDate`, `endTime`). A time on both ends or on neither.",
          }),
        },
        {
          additionalProperties: false,
          title: 'Event',
          description:
            "An event's or an offer's title and schedule (`event`): required for the types `event` and `offer`.",
        },
      ),
    ),
    offer: Type.Optional(
      Type.Object(
        {
          coupon_code: Type.Optional(
            Type.String({
              minLength: 1,
              title: 'Coupon code',
              description: 'The code to use in store or online (`offer.couponCode`).',
            }),
          ),
          redeem_url: Type.Optional(
            Type.String({
              minLength: 1,
              title: 'Redeem online',
              description: 'An http(s) link where the offer is redeemed online (`offer.redeemOnlineUrl`).',
            }),
          ),
          terms: Type.Optional(
            Type.String({
              minLength: 1,
              title: 'Terms',
              description: "The offer's terms and conditions (`offer.termsConditions`).",
            }),
          ),
        },
        {
          additionalProperties: false,
          title: 'Offer',
          description: "An offer's coupon code, link and terms (`offer`): only for the type `offer`.",
        },
      ),
    ),
    call_to_action: Type.Optional(
      Type.Object(
        {
          type: Type.Enum(GBP_ACTION_TYPES, {
            title: 'Button',
            description:
              "The button (`callToAction.actionType`): `BOOK`, `ORDER`, `SHOP`, `LEARN_MORE`, `SIGN_UP`, or `CALL` (calls the location's phone number, no link).",
          }),
          url: Type.Optional(
            Type.String({
              minLength: 1,
              title: 'Link',
              description:
                'Where the button leads, an http(s) link (`callToAction.url`): required for every button but `CALL`, which takes none.',
            }),
          ),
        },
        {
          additionalProperties: false,
          title: 'Call to action',
          description:
            "A button on the post (`callToAction`). Google ignores it on an offer, whose link is the offer's own, so an offer takes none.",
        },
      ),
    ),
  },
  { additionalProperties: false },
);

/**
 * What each metric counts, from the Performance API's DailyMetric (its name in brackets). A
 * location's posts have no figures there: no post metrics.
 */
const METRIC_DESCRIPTIONS = {
  account: {
    impressions_desktop_maps:
      'Views of the business profile on Google Maps on computers, each person counted once a day (BUSINESS_IMPRESSIONS_DESKTOP_MAPS).',
    impressions_desktop_search:
      'Views of the business profile on Google Search on computers, each person counted once a day (BUSINESS_IMPRESSIONS_DESKTOP_SEARCH).',
    impressions_mobile_maps:
      'Views of the business profile on Google Maps on mobile devices, each person counted once a day (BUSINESS_IMPRESSIONS_MOBILE_MAPS).',
    impressions_mobile_search:
      'Views of the business profile on Google Search on mobile devices, each person counted once a day (BUSINESS_IMPRESSIONS_MOBILE_SEARCH).',
    calls: "Clicks on the profile's call button (CALL_CLICKS).",
    website_clicks: "Clicks on the profile's website link (WEBSITE_CLICKS).",
    direction_requests: 'Requests for directions to the location (BUSINESS_DIRECTION_REQUESTS).',
    conversations: 'Message conversations received on the profile (BUSINESS_CONVERSATIONS).',
    bookings: 'Bookings made from the profile through Reserve with Google (BUSINESS_BOOKINGS).',
  },
  post: {},
} satisfies MetricDescriptions;

export const GOOGLE_BUSINESS_METRICS = metricsOf(METRIC_DESCRIPTIONS);

export const googleBusinessDefinition = {
  platform: 'google_business',
  label: 'Google Business Profile',
  apiAccess:
    'Google opens the Business Profile APIs only to a Google Cloud project it approved: whoever runs this service requests access for the project of GOOGLE_BUSINESS_CLIENT_ID through Google\'s access request form (Prerequisites, "Request access to the APIs") and enables the APIs once approved; until then Google answers every call as over a quota of 0.',
  // A Google login reaches every location its Google user manages (accounts.list, then each
  // account's locations.list); each chosen location is an account.
  grantsPages: true,
  // Reviews are the location's comments: answered (one answer, which a second replaces) and the
  // answer deleted; Google has no hiding of reviews.
  comments: { reply: true, hide: false, deleteReply: true, replyToHidden: false, hideReplies: false },
  // The Business Profile Performance API's daily figures of the location.
  insights: GOOGLE_BUSINESS_METRICS,
  metricDescriptions: METRIC_DESCRIPTIONS,
  // A location has no followers: its views are the four impressions, its interactions what people did on the profile.
  reportFigures: {
    followers: null,
    views: [
      'impressions_desktop_maps',
      'impressions_desktop_search',
      'impressions_mobile_maps',
      'impressions_mobile_search',
    ],
    engagement: { account: ['calls', 'website_clicks', 'direction_requests', 'conversations', 'bookings'], post: [] },
  },
  publishing: {
    // A local post is a summary, a photo, or both.
    kinds: ['text', 'image'],
    // localPosts.create is the publication: Google reviews the post (PROCESSING) and shows it
    // (LIVE) or refuses it (REJECTED) by itself.
    containerPublishes: true,
    // Google documents no rhythm for a post's review: read after 30 s, then each wait half as
    // long again, at most 10 minutes apart, for at most a day (docs/platforms.md, Open questions).
    processing: { pollSeconds: 30, pollFactor: 1.5, maxPollSeconds: 600, limitSeconds: 86_400 },
    // A post's description: 1,500 characters (Business Profile Help; the API reference gives no figure).
    text: { maxLength: 1_500, counting: CODE_POINTS },
    carousel: null,
    videoDurations: [],
    // A post's photo: JPG or PNG (Business Profile Help, photo guidelines).
    imageTypes: ['image/jpeg', 'image/png'],
    options: GOOGLE_BUSINESS_OPTIONS,
    requiredOptions: [],
  },
  // Google sends review notifications only to a Cloud Pub/Sub topic; a push subscription of it
  // brings them to PUBLIC_URL/platform-webhooks/google_business. Without a topic: polling only.
  settings: {
    pubsubTopic: platformSetting(
      'GOOGLE_BUSINESS_PUBSUB_TOPIC',
      Type.String({ pattern: '^projects/[^/\\s]+/topics/[^/\\s]+$' }),
      "The Cloud Pub/Sub topic Google publishes each location's review notifications to (NEW_REVIEW, UPDATED_REVIEW), `projects/<project>/topics/<topic>`, on which mybusiness-api-pubsub@system.gserviceaccount.com may publish; a push subscription of it with authentication sends them to PUBLIC_URL/platform-webhooks/google_business. Needs GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT. Unset: reviews are read by polling alone.",
    ),
    pushServiceAccount: platformSetting(
      'GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT',
      Type.String({ pattern: '^[^@\\s]+@[^@\\s]+$' }),
      "The service account email the push subscription's tokens are made for (its authentication's service account): a push whose token names another is refused.",
    ),
    pushAudience: platformSetting(
      'GOOGLE_BUSINESS_PUSH_AUDIENCE',
      Type.String({ pattern: '^\\S+$' }),
      "The audience the push subscription's tokens are made for. Unset: the push endpoint's URL, PUBLIC_URL/platform-webhooks/google_business, which is Pub/Sub's own default.",
    ),
  },
} satisfies Omit<PlatformDefinition, 'create'>;
