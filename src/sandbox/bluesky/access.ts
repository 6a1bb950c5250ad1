/**
 * What every Bluesky route shares: the hosts (the PLC directory, the entryway that is the
 * authorization server, one PDS), the scopes, and the errors in XRPC's shape (`{error, message}`)
 * and OAuth's (`{error, error_description}`).
 */
import { createHash } from 'node:crypto';
import { type ErrorDialect, SandboxAnswer, waitOf } from '../answers.ts';

export const platform = 'bluesky';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A content id's look (`bafyrei…`, `bafkrei…`): base32 of a SHA-256 of what it names. */
export function cidOf(prefix: string, content: Buffer | string): string {
  const hash = createHash('sha256').update(content).digest();
  let out = '';
  for (let i = 0; i < 52; i++) out += BASE32[((hash[Math.floor((i * 5) / 8)] ?? 0) >> (i % 3)) & 31];
  return `${prefix}${out}`;
}

/** The hosts as the protocol names them (https, no port); the sandbox serves each under its name. */
export const HOST = {
  plc: 'plc.directory',
  /** The entryway: bsky.social's authorization server, serving accounts hosted on its PDSes. */
  entryway: 'bsky.social',
  pds: 'morel.us-east.host.bsky.network',
  /** Bluesky's video service, which processes a video and stores it in the user's repository. */
  video: 'video.bsky.app',
} as const;

export const ISSUER = `https://${HOST.entryway}`;
export const PDS_URL = `https://${HOST.pds}`;

export const SCOPE = { atproto: 'atproto', generic: 'transition:generic' } as const;

export function xrpcAnswer(status: number, error: string, message: string, headers: Record<string, string> = {}) {
  return new SandboxAnswer(status, { error, message }, headers);
}

export function oauthAnswer(status: number, error: string, description: string, headers: Record<string, string> = {}) {
  return new SandboxAnswer(status, { error, error_description: description }, headers);
}

/** XRPC's words for what the shared parts refuse. */
export function xrpcDialect(now: () => Date): ErrorDialect {
  return {
    invalidToken: () =>
      xrpcAnswer(401, 'InvalidToken', 'Bad token scope', { 'www-authenticate': 'DPoP error="invalid_token"' }),
    preset(preset, waitSeconds) {
      switch (preset) {
        case 'token_expired':
          return xrpcAnswer(401, 'ExpiredToken', 'Token has expired', {
            'www-authenticate': 'DPoP error="invalid_token", error_description="Token has expired"',
          });
        case 'access_revoked':
          return xrpcAnswer(401, 'InvalidToken', 'Token has been revoked', {
            'www-authenticate': 'DPoP error="invalid_token"',
          });
        case 'permission_missing':
          return xrpcAnswer(403, 'InsufficientScope', 'Missing required scope', {
            'www-authenticate': 'DPoP error="insufficient_scope"',
          });
        case 'rate_limited': {
          const wait = waitOf(waitSeconds);
          return xrpcAnswer(429, 'RateLimitExceeded', 'Rate Limit Exceeded', {
            'ratelimit-limit': '5000',
            'ratelimit-remaining': '0',
            'ratelimit-reset': String(Math.ceil(now().getTime() / 1000) + wait),
          });
        }
        case 'transient':
          return xrpcAnswer(502, 'UpstreamFailure', 'Upstream Failure');
        case 'invalid_request':
          return xrpcAnswer(400, 'InvalidRequest', 'Input is invalid');
      }
    },
    badParameter: (message) => xrpcAnswer(400, 'InvalidRequest', message),
    notFound: (id) => xrpcAnswer(400, 'RecordNotFound', `Could not locate record: ${id}`),
    unknownPath: () => xrpcAnswer(501, 'MethodNotImplemented', 'Method Not Implemented'),
  };
}
