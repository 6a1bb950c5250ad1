/**
 * What a platform's refusal of an action on an account means for the API caller, the same for
 * every module that acts on a platform while a request waits.
 */
import { type PlatformError, platformInfo } from '../platforms/index.ts';
import { ApiError } from './errors.ts';

/** The API's answer to a platform's refusal (note the account's failure first, where it concerns it). */
export function platformFailure(error: PlatformError): ApiError {
  const platform = error.detail.platform;
  const details = {
    platform,
    platform_code: error.detail.code === undefined ? null : String(error.detail.code),
    platform_message: error.detail.platformMessage ?? error.message,
  };
  switch (error.kind) {
    case 'token_expired':
    case 'access_revoked':
      return new ApiError(
        409,
        'account_not_connected',
        `${platformInfo(platform).label} says the account's access ${error.kind === 'token_expired' ? 'expired' : 'was revoked'}; reconnect it.`,
        details,
      );
    case 'permission_missing': {
      const missing = error.detail.missingScopes ?? [];
      return new ApiError(
        422,
        'permission_missing',
        `${platformInfo(platform).label} refused for lack of a permission${missing.length > 0 ? ` (${missing.join(', ')})` : ''}; reconnect the account with it.`,
        { ...details, permission: missing[0] ?? null, missing_permissions: missing },
      );
    }
    case 'rate_limited': {
      const wait = Math.max(1, Math.ceil(error.detail.retryAfterSeconds ?? 60));
      return new ApiError(
        429,
        'platform_rate_limited',
        `${platformInfo(platform).label} limits the calls for this account now; retry after ${wait} s.`,
        details,
        { 'Retry-After': String(wait) },
      );
    }
    case 'unsupported':
      return new ApiError(422, 'unsupported_platform', error.message, details);
    default:
      return new ApiError(
        502,
        'platform_error',
        `${platformInfo(platform).label} refused: ${details.platform_message}`,
        details,
      );
  }
}
