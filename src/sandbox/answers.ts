/**
 * The sandbox's error answers. A handler throws a SandboxAnswer; the host's error handler
 * sends it as it is. Each platform words its errors its own way, an ErrorDialect: Meta's
 * Graph envelope (meta/errors.ts), TikTok's (tiktok/envelope.ts).
 */
import { randomBytes } from 'node:crypto';

/** The errors the control API can make the next call (or publish) answer with. */
export const FAULT_PRESETS = [
  'token_expired',
  'access_revoked',
  'permission_missing',
  'rate_limited',
  'transient',
  'invalid_request',
] as const;
export type FaultPreset = (typeof FAULT_PRESETS)[number];

export class SandboxAnswer extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(`sandbox answer ${status}`);
  }
}

/** How a platform words what the shared parts of the sandbox refuse. */
export interface ErrorDialect {
  /** A call without a token, or with one the platform does not take (`message`: what Graph says of which). */
  invalidToken(message: string): SandboxAnswer;
  /** A preset's answer; `waitSeconds` is the rate-limit wait (see waitOf). */
  preset(preset: FaultPreset, waitSeconds?: number): SandboxAnswer;
  /** A missing or malformed parameter. */
  badParameter(message: string): SandboxAnswer;
  /** An object that does not exist or that this token may not see. */
  notFound(id: string): SandboxAnswer;
  /** A path the platform does not have. */
  unknownPath(path: string): SandboxAnswer;
}

/** What refuses a malformed parameter: a whole dialect, or Graph's answers every Meta host shares. */
export type ParameterRefusal = Pick<ErrorDialect, 'badParameter'>;

/** A trace id of an error answer (Graph's `fbtrace_id`, TikTok's `log_id`). */
export const traceId = () => randomBytes(12).toString('base64url');

/** The rate-limit wait a preset tells, in whole seconds: a minute unless the throttle says otherwise. */
export function waitOf(waitSeconds: number | undefined): number {
  return Math.max(1, Math.ceil(waitSeconds ?? 60));
}

/**
 * The answer of a fault the control API set: a custom one exactly as given, a preset in the
 * words `preset` gives it (a platform's API dialect, or its OAuth endpoints').
 */
export function faultAnswer(
  fault: { error: string; status: number | null; body: unknown },
  preset: (preset: FaultPreset) => SandboxAnswer,
): SandboxAnswer | null {
  if (fault.error === 'custom') return new SandboxAnswer(fault.status ?? 400, fault.body);
  return (FAULT_PRESETS as readonly string[]).includes(fault.error) ? preset(fault.error as FaultPreset) : null;
}
