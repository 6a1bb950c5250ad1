/** The adapters the service uses, pointed at the real platforms or at the sandbox. */
import { LRUCache } from 'lru-cache';
import type { Dispatcher } from 'undici';
import { now as clockNow } from '../clock.ts';
import type { Config } from '../config.ts';
import { sharedCounter } from '../metrics/shared.ts';
import { sha256Hex } from '../secrets.ts';
import { type CallResult, hostUrlFor } from './http.ts';
import {
  PLATFORM_SETTINGS,
  PLATFORMS,
  type Platform,
  type PlatformSettingValues,
  platformInfo,
  settingsPrefix,
} from './registry.ts';
import { type PlatformAdapter, PlatformError, type ProjectUnits } from './types.ts';

export * from './registry.ts';
export * from './types.ts';

export interface PlatformSet {
  mode: 'live' | 'sandbox';
  /** The platforms that can be used: every one in sandbox mode, those with credentials when live. */
  available: Platform[];
  /**
   * The platforms without the deployment's credentials where an owner may bring its own app
   * (`ownerApps`): usable by the owners that did. Their adapter without an app makes the calls
   * an account's token carries alone; its sign-in, refresh and revocation are refused
   * (`unsupported`), as they need an app: each account's is its owner's.
   */
  ownerAppsOnly: Platform[];
  /**
   * The adapter of `platform` with the deployment's app, or with `app` (an owner's own app on
   * the platform) when given; `unsupported` PlatformError when neither is there.
   */
  adapter(platform: Platform, app?: PlatformApp): PlatformAdapter;
}

/** An app's credentials on a platform: the deployment's (settings) or an owner's own. */
export interface PlatformApp {
  clientId: string;
  clientSecret: string;
}

const callsMetric = sharedCounter({
  name: 'switchboard_platform_calls_total',
  help: "Calls to the platforms' APIs (or the sandbox's), by platform and result: ok (HTTP 1xx-3xx), rate_limited (429), client_error (another 4xx; Meta's rate limits among them), server_error (5xx), unreachable (no answer in time, or a network error).",
  labelNames: ['platform', 'result'],
});

function countCall(platform: Platform, result: CallResult): void {
  callsMetric.inc({ platform, result });
}

/** Client id the sandbox sees when no credentials are configured for a platform. */
export const SANDBOX_CLIENT = { clientId: 'switchboard-sandbox', clientSecret: 'switchboard-sandbox-secret' };

/** No app: the adapter of a platform only owners' apps serve, for what needs none. */
const NO_APP: PlatformApp = { clientId: '', clientSecret: '' };

/** `adapter` with what needs an app's credentials refused, rather than sent without them. */
function withoutApp(adapter: PlatformAdapter, platform: Platform): PlatformAdapter {
  const refuse = (): never => {
    throw new PlatformError(
      'unsupported',
      `${platformInfo(platform).label} has no app of this service: its accounts sign in, refresh and revoke through their owner's own app`,
      { platform },
    );
  };
  return { ...adapter, authorizeUrl: refuse, exchangeCode: refuse, refreshToken: refuse, revokeAccess: refuse };
}

/** How many owners' app adapters a process keeps built. */
const OWNER_ADAPTERS_KEPT = 1000;

export function createPlatforms(
  config: Pick<Config, 'platforms' | 'platformCredentials'> &
    Partial<PlatformSettingValues> & { sandboxUrl: string | undefined; serviceUrl?: string },
  options: { dispatcher?: Dispatcher; timeoutMs?: number; now?: () => Date; projectUnits?: ProjectUnits } = {},
): PlatformSet {
  const hostUrl = hostUrlFor(config.platforms, config.sandboxUrl);
  const credentials = new Map<Platform, PlatformApp>();
  for (const platform of PLATFORMS) {
    const configured =
      config.platformCredentials[platform] ?? (config.platforms === 'sandbox' ? SANDBOX_CLIENT : undefined);
    if (configured !== undefined) credentials.set(platform, configured);
  }
  const ownerAppsOnly = PLATFORMS.filter((p) => !credentials.has(p) && platformInfo(p).ownerApps === true);
  const adapters = new Map<string, PlatformAdapter>();
  // Owners' apps are as many as the owners, and a replaced secret is a new entry: the least
  // recently used are built again when asked for rather than kept for the process's life.
  const ownerAdapters = new LRUCache<string, PlatformAdapter>({ max: OWNER_ADAPTERS_KEPT });
  return {
    mode: config.platforms,
    available: [...credentials.keys()],
    ownerAppsOnly,
    adapter(platform, app) {
      // An owner's app is keyed by its id and a hash of its secret: a replaced secret builds anew.
      const key = app === undefined ? platform : `${platform}\n${app.clientId}\n${sha256Hex(app.clientSecret)}`;
      const cache = app === undefined ? adapters : ownerAdapters;
      const cached = cache.get(key);
      if (cached) return cached;
      const client = app ?? credentials.get(platform) ?? (ownerAppsOnly.includes(platform) ? NO_APP : undefined);
      if (!client) {
        const prefix = settingsPrefix(platform);
        throw new PlatformError(
          'unsupported',
          `${platformInfo(platform).label} is not configured: set ${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET`,
          { platform },
        );
      }
      const settings = Object.fromEntries(
        PLATFORM_SETTINGS.filter((declared) => declared.platform === platform).map(({ key, configName, setting }) => [
          key,
          config[configName] ?? setting.default,
        ]),
      );
      const adapter = platformInfo(platform).create(
        {
          ...client,
          hostUrl,
          dispatcher: options.dispatcher,
          timeoutMs: options.timeoutMs,
          countCall,
          settings,
          ...(config.serviceUrl === undefined ? {} : { serviceUrl: config.serviceUrl }),
          ...(options.projectUnits === undefined ? {} : { projectUnits: options.projectUnits }),
        },
        options.now ?? clockNow,
      );
      const built = client === NO_APP ? withoutApp(adapter, platform) : adapter;
      cache.set(key, built);
      return built;
    },
  };
}
