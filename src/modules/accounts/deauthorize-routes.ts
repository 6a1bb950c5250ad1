/**
 * Where platforms tell the service that a user removed the app (Meta's deauthorize and
 * uninstall callbacks, TikTok's `authorization.removed` webhook). Register
 * `PUBLIC_URL/platforms/<platform>/deauthorize` in each app's settings on the platform.
 * Not part of the API: only the platforms call it, and they sign what they send.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/connection.ts';
import { ApiError } from '../../http/errors.ts';
import { isPlatform, PlatformError, type PlatformSet } from '../../platforms/index.ts';
import { disconnectPlatformUsers } from './access.ts';

export function deauthorizeRoutes({ db, platforms }: { db: Db; platforms: () => PlatformSet }): FastifyPluginAsync {
  return async (app) => {
    // Signatures cover the bytes as sent, so the body is kept as text, whatever its type.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

    app.post<{ Params: { platform: string } }>(
      '/platforms/:platform/deauthorize',
      { schema: { hide: true } },
      async (request, reply) => {
        const { platform } = request.params;
        if (!isPlatform(platform)) {
          throw new ApiError(404, 'not_found', `No platform ${JSON.stringify(platform)}.`);
        }
        const headers = Object.fromEntries(
          Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]),
        );
        let users: string[];
        try {
          users = platforms()
            .adapter(platform)
            .parseDeauthorization({ headers, body: typeof request.body === 'string' ? request.body : '' });
        } catch (error) {
          if (!(error instanceof PlatformError)) throw error;
          request.log.warn({ platform, kind: error.kind, err: error.message }, 'platform notice refused');
          const status = error.kind === 'unsupported' ? 404 : 400;
          throw new ApiError(status, 'invalid_notice', error.message);
        }
        const ended = await disconnectPlatformUsers(db, platform, users, `${platform}: the user removed the app`);
        request.log.info(
          { platform, platform_users: users.length, accounts: ended.map((a) => a.id) },
          'platform reported an app removal; accounts disconnected',
        );
        return reply.code(200).send({ received: true });
      },
    );
  };
}
