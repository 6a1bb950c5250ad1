/**
 * The CSRF guard of a hosted page's form: an HMAC of a random value kept in a SameSite=Lax cookie
 * and of what the form acts on (a link's token). A browser sends a Lax cookie when a person opens
 * a link from an e-mail, never with a POST another site starts: so a page of another site cannot
 * post the form, even where it knows a link.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { publicBaseUrl } from '../http/public-url.ts';
import { keyObjectOf } from '../secrets.ts';

export interface FormGuard {
  /** The token the form carries; sets the browser's cookie on `reply` when it has none. */
  issue(request: FastifyRequest, reply: FastifyReply, bound: string): string;
  /** True when `sent` is the token of this browser's cookie and `bound`. */
  check(request: FastifyRequest, bound: string, sent: string | null): boolean;
}

const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;

export function formGuard(options: {
  secretKey: Buffer;
  config: Pick<Config, 'publicUrl'>;
  /** The cookie's name and path: the pages it guards. */
  cookie: string;
  path: string;
  /** Keeps one page's tokens from passing another's. */
  purpose: string;
  maxAgeMs: number;
  /**
   * Over https, name the cookie `__Host-<cookie>` (path `/`): the browser then takes it only from
   * this host, never from a sibling subdomain that would plant a value it knows the token of.
   */
  hostOnly?: boolean;
}): FormGuard {
  /** The cookie's name and path, as the request reached the service. */
  const cookieOf = (request: FastifyRequest) => {
    const secure = publicBaseUrl(options.config, request).startsWith('https:');
    return options.hostOnly && secure
      ? { name: `__Host-${options.cookie}`, path: '/', secure }
      : { name: options.cookie, path: options.path, secure };
  };
  const tokenOf = (cookie: string, bound: string) =>
    createHmac('sha256', keyObjectOf(options.secretKey))
      .update(`${options.purpose}\u0000${cookie}\u0000${bound}`)
      .digest('base64url');
  return {
    issue(request, reply, bound) {
      const cookie = cookieOf(request);
      let value = request.cookies[cookie.name];
      if (!value || !COOKIE_VALUE.test(value)) {
        value = randomBytes(32).toString('base64url');
        reply.setCookie(cookie.name, value, {
          path: cookie.path,
          httpOnly: true,
          secure: cookie.secure,
          // Lax: sent when a link from an e-mail is opened (so a second link opened keeps the
          // first tab's form valid), never with a POST another site starts.
          sameSite: 'lax',
          maxAge: Math.floor(options.maxAgeMs / 1000),
        });
      }
      return tokenOf(value, bound);
    },
    check(request, bound, sent) {
      const cookie = request.cookies[cookieOf(request).name];
      if (!cookie || !sent) return false;
      const expected = Buffer.from(tokenOf(cookie, bound));
      const given = Buffer.from(sent);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
