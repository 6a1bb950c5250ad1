/** Sandbox-wide switches the control API sets, kept in the settings table. */
import { eq } from 'drizzle-orm';
import type { Store } from '../platform.ts';
import { sandboxSettings } from '../schema.ts';

/** A sandbox-wide setting: its default and what it accepts (a JSON value). */
interface SettingSpec<T extends string | number> {
  default: T;
  /** The value as the setting holds it, or null when it is not one it takes. */
  read(value: unknown): T | null;
  /** What it takes, for the control API's refusal. */
  takes: string;
}

function oneOf<const T extends string>(values: readonly T[]): SettingSpec<T> {
  return {
    default: values[0] as T,
    read: (value) => ((values as readonly unknown[]).includes(value) ? (value as T) : null),
    takes: `one of ${values.join(', ')}`,
  };
}

/** A whole number from 0 to `max` (`what`: how the refusal names it). */
function wholeNumber(fallback: number, max: number, what = 'a whole number'): SettingSpec<number> {
  return {
    default: fallback,
    read: (value) =>
      Number.isInteger(value) && (value as number) >= 0 && (value as number) <= max ? (value as number) : null,
    takes: `${what} from 0 to ${max}`,
  };
}

const seconds = (fallback: number, max: number) => wholeNumber(fallback, max, 'a whole number of seconds');

function commaList(fallback: string): SettingSpec<string> {
  return {
    default: fallback,
    read: (value) => (typeof value === 'string' && value.trim() !== '' && value.length <= 2000 ? value : null),
    takes: 'a comma-separated list (or *)',
  };
}

/** Switches the control API sets (`PUT /_control/settings/{name}`); see docs/sandbox.md. */
export const SANDBOX_SETTINGS = {
  /** Instagram's code exchange: `data` (documented, `{"data":[{...}]}`) or `flat` (`{...}`). */
  instagram_token_shape: oneOf(['data', 'flat']),
  /**
   * How long a new publishing container (Instagram, Threads media, TikTok's video) stays
   * IN_PROGRESS on the sandbox clock. 5 s: as on the platforms with a video, publishing
   * without polling fails, while a demo still publishes within seconds.
   */
  container_processing_seconds: seconds(5, 86_400),
  /** How long TikTok's moderation of a public post takes: "usually within one minute" (TikTok's post status docs). */
  tiktok_moderation_seconds: seconds(30, 2 * 86_400),
  /**
   * The longest video (whole seconds) a TikTok account may post, which creator_info answers
   * as max_video_post_duration_sec: "Different users have different maximum video-duration
   * privileges" (Query Creator Info reference), 3, 5 or 10 minutes (Media Transfer Guide).
   * The sandbox gives every account the longest, 10 minutes.
   */
  tiktok_max_video_post_duration_sec: seconds(600, 86_400),
  /** `unaudited`: as TikTok treats an app before its audit (private accounts only, SELF_ONLY posts, 5 posting users a day). */
  tiktok_client_audit: oneOf(['audited', 'unaudited']),
  /**
   * Posts an Instagram account may publish through the API in a moving 24 hours: 100, as
   * the Content Publishing guide says (carousels count once). Lower it to spend it in a test.
   */
  instagram_publish_quota: wholeNumber(100, 10_000),
  /** Threads: 250 posts in a moving 24 hours (Threads API overview, "Posts"); replies have their own 1,000. */
  threads_publish_quota: wholeNumber(250, 10_000),
  /** The URL prefixes (or domains) the TikTok app verified for PULL_FROM_URL; `*`: every one. */
  tiktok_verified_url_prefixes: commaList('*'),
  /**
   * Instagram's comment notices: `entry` (`field`/`value` on the entry, as the Instagram
   * Login examples show them) or `changes` (nested in `entry[].changes[]`, Facebook Login's).
   */
  instagram_webhook_shape: oneOf(['entry', 'changes']),
  /**
   * What Instagram's and Facebook's Graph answers report in `X-App-Usage` (call_count,
   * total_time and total_cputime, percent of the app's limit). 0: no header, as Graph sends
   * none before enough calls were made.
   */
  app_usage_percent: wholeNumber(0, 100, 'a whole percentage'),
} as const;
export type SandboxSettingName = keyof typeof SANDBOX_SETTINGS;
type SettingValue<N extends SandboxSettingName> = (typeof SANDBOX_SETTINGS)[N]['default'];

export async function setSetting(store: Store, name: SandboxSettingName, value: string | number): Promise<void> {
  await store.db
    .insert(sandboxSettings)
    .values({ name, value })
    .onConflictDoUpdate({ target: sandboxSettings.name, set: { value } });
}

export async function getSetting<N extends SandboxSettingName>(store: Store, name: N): Promise<SettingValue<N>> {
  const [row] = await store.db.select().from(sandboxSettings).where(eq(sandboxSettings.name, name));
  const spec: SettingSpec<string | number> = SANDBOX_SETTINGS[name];
  return (row === undefined ? spec.default : (spec.read(row.value) ?? spec.default)) as SettingValue<N>;
}
