import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformResponse } from '../../src/platforms/http.ts';
import { GraphClient } from '../../src/platforms/meta/graph-client.ts';
import { graphError } from '../../src/platforms/meta/graph-errors.ts';

/** A real HTTP server that answers `answer(url)` as JSON and remembers every path it was asked for. */
async function jsonServer(
  answer: (url: string) => unknown,
): Promise<{ server: Server; port: number; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    asked.push(request.url ?? '');
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(answer(request.url ?? '')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, asked };
}

function client(baseUrl: string): GraphClient {
  return new GraphClient(
    'instagram',
    baseUrl,
    'v25.0',
    { clientId: 'id', clientSecret: 'secret', hostUrl: (host) => `https://${host}` },
    () => new Date(),
  );
}

describe('graph paging: paging.next is followed on our own host only', () => {
  let lookalike: Awaited<ReturnType<typeof jsonServer>>;
  let graph: Awaited<ReturnType<typeof jsonServer>>;
  /** What the fake Graph host answers for the second page's `next`. */
  let nextOf: (port: number) => string;

  beforeAll(async () => {
    lookalike = await jsonServer(() => ({ data: ['stolen'] }));
    graph = await jsonServer((url) =>
      url.includes('after=2') ? { data: ['second'] } : { data: ['first'], paging: { next: nextOf(lookalike.port) } },
    );
  });
  afterAll(() => {
    lookalike.server.close();
    graph.server.close();
  });

  it('a next URL whose text starts with our base but whose host is another gets no request, nor the token', async () => {
    const base = `http://127.0.0.1:${graph.port}`;
    // Parsed, this is host 127.0.0.1:<look-alike port> with user info "127.0.0.1:<our port>".
    nextOf = (port) => `${base}@127.0.0.1:${port}/v25.0/17841405793187219/media?after=2&access_token=user-token`;
    const items = await client(base).getAll('/17841405793187219/media', 'user-token', {}, 10);
    expect(items).toEqual(['first']);
    expect(lookalike.asked).toEqual([]);
  });

  it('sandbox mode: a next URL whose path only starts like our base path gets no request', async () => {
    // Sandbox mode: the base has a path, and `/sandbox/graph.instagram.com.evil.test` is not under it.
    const base = `http://127.0.0.1:${graph.port}/sandbox/graph.instagram.com`;
    nextOf = () =>
      `http://127.0.0.1:${graph.port}/sandbox/graph.instagram.com.evil.test/v25.0/1/media?after=2&access_token=t`;
    graph.asked.length = 0;
    const items = await client(base).getAll('/1/media', 't', {}, 10);
    expect(items).toEqual(['first']);
    expect(graph.asked).toEqual(['/sandbox/graph.instagram.com/v25.0/1/media?access_token=t']);
  });

  it('a next URL under our base is followed', async () => {
    const base = `http://127.0.0.1:${graph.port}/sandbox/graph.instagram.com`;
    nextOf = () => `${base}/v25.0/1/media?after=2&access_token=t`;
    expect(await client(base).getAll('/1/media', 't', {}, 10)).toEqual(['first', 'second']);
  });
});

/** A Graph error answer as the platform sends it. */
function graphAnswer(
  error: { code?: number; error_subcode?: number; message?: string; is_transient?: boolean },
  status = 400,
  headers: Record<string, string> = {},
): PlatformResponse {
  const body = {
    error: { message: 'Message describing the error', type: 'OAuthException', ...error, fbtrace_id: 'x' },
  };
  return { status, headers, body, text: JSON.stringify(body) };
}

describe('graph errors: classified as Meta documents them', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  // [what the platform answered, expected kind, expected retryAfterSeconds (rate_limited only)]
  const table: [string, PlatformResponse, string, number | undefined][] = [
    ['1 API Unknown', graphAnswer({ code: 1 }, 500), 'transient', undefined],
    ['2 API Service', graphAnswer({ code: 2 }, 500), 'transient', undefined],
    ['3 API Method (a capability of the app)', graphAnswer({ code: 3 }), 'unsupported', undefined],
    ['4 API Too Many Calls', graphAnswer({ code: 4 }), 'rate_limited', 60],
    ['10 API Permission Denied', graphAnswer({ code: 10 }, 403), 'permission_missing', undefined],
    ['17 API User Too Many Calls', graphAnswer({ code: 17 }), 'rate_limited', 60],
    ['32 page-level throttling', graphAnswer({ code: 32 }), 'rate_limited', 60],
    ['100 invalid parameter', graphAnswer({ code: 100 }), 'invalid_request', undefined],
    ['102 API Session without subcode', graphAnswer({ code: 102 }), 'token_expired', undefined],
    ['190 without subcode', graphAnswer({ code: 190 }), 'token_expired', undefined],
    ['190/458 App Not Installed', graphAnswer({ code: 190, error_subcode: 458 }), 'access_revoked', undefined],
    ['190/459 User Checkpointed', graphAnswer({ code: 190, error_subcode: 459 }), 'token_expired', undefined],
    ['190/460 Password Changed', graphAnswer({ code: 190, error_subcode: 460 }), 'token_expired', undefined],
    ['190/463 Expired', graphAnswer({ code: 190, error_subcode: 463 }), 'token_expired', undefined],
    ['190/464 Unconfirmed User', graphAnswer({ code: 190, error_subcode: 464 }), 'token_expired', undefined],
    ['190/467 Invalid access token', graphAnswer({ code: 190, error_subcode: 467 }), 'token_expired', undefined],
    [
      '190/492 Invalid session (no role on the page)',
      graphAnswer({ code: 190, error_subcode: 492 }),
      'access_revoked',
      undefined,
    ],
    [
      '190 "The user has not authorized application" (Threads)',
      graphAnswer({ code: 190, message: 'Error validating access token: The user has not authorized application.' }),
      'access_revoked',
      undefined,
    ],
    ['200 permission', graphAnswer({ code: 200 }, 403), 'permission_missing', undefined],
    ['299 permission', graphAnswer({ code: 299 }, 403), 'permission_missing', undefined],
    ['341 Application limit reached', graphAnswer({ code: 341 }), 'rate_limited', 900],
    ['368 Temporarily blocked for policies violations', graphAnswer({ code: 368 }), 'rate_limited', 3600],
    ['506 Duplicate Post', graphAnswer({ code: 506 }), 'invalid_request', undefined],
    ['613 rate limit exceeded', graphAnswer({ code: 613 }), 'rate_limited', 60],
    ['1609005 Error Posting Link', graphAnswer({ code: 1_609_005 }), 'invalid_request', undefined],
    ['80001 Business Use Case (pages)', graphAnswer({ code: 80_001 }), 'rate_limited', 60],
    ['80002 Business Use Case (Instagram)', graphAnswer({ code: 80_002 }), 'rate_limited', 60],
    ['80014 Business Use Case (catalog batch)', graphAnswer({ code: 80_014 }), 'rate_limited', 60],
    ['9/2207042 daily publishing cap', graphAnswer({ code: 9, error_subcode: 2_207_042 }), 'rate_limited', 3600],
    ['9007/2207027 media not ready', graphAnswer({ code: 9007, error_subcode: 2_207_027 }), 'transient', undefined],
    ['is_transient', graphAnswer({ code: 100, is_transient: true }), 'transient', undefined],
    ['4 with Retry-After', graphAnswer({ code: 4 }, 400, { 'retry-after': '120' }), 'rate_limited', 120],
    [
      '80002 with estimated_time_to_regain_access (minutes)',
      graphAnswer({ code: 80_002 }, 400, {
        'x-business-use-case-usage': JSON.stringify({
          '1': [{ type: 'instagram', estimated_time_to_regain_access: 5 }],
        }),
      }),
      'rate_limited',
      300,
    ],
    ['no Graph body, HTTP 500', { status: 500, headers: {}, body: undefined, text: 'oops' }, 'transient', undefined],
    ['no Graph body, HTTP 429', { status: 429, headers: {}, body: undefined, text: '' }, 'rate_limited', 60],
  ];

  it.each(table)('%s', (_name, response, kind, retryAfter) => {
    const error = graphError('instagram', response, now);
    expect(error.kind).toBe(kind);
    expect(error.detail.retryAfterSeconds).toBe(retryAfter);
  });

  /*
   * Instagram's publishing error table, row by row as the Instagram Platform's error-code
   * reference gives it (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/error-codes):
   * code, subcode, user message, and the kind its recommended solution means. "Try again" (and
   * "wait until FINISHED") is transient, "the following day" a rate limit, anything the user
   * or the content must change a refusal.
   */
  const instagramPublishing: [number, number, string, string][] = [
    [-2, 2207003, 'It takes too long to download the media.', 'transient'],
    [-2, 2207020, 'The media you are trying to access has expired. Please try to upload again.', 'transient'],
    [-1, 2207001, 'Instagram server error. Try again.', 'transient'],
    [-1, 2207032, 'Create media fail, please try to re-create media', 'transient'],
    [-1, 2207053, 'unknown upload error', 'transient'],
    [1, 2207057, 'Thumbnail offset must be greater than or equal to 0 and less than video duration', 'invalid_request'],
    [
      4,
      2207051,
      'We restrict certain activity to protect our community. Tell us if you think we made a mistake.',
      'invalid_request',
    ],
    [
      9,
      2207042,
      'You reached maximum number of posts that is allowed to be published by Content Publishing API.',
      'rate_limited',
    ],
    [24, 2207006, 'The media with 17895695668004550 cannot be found', 'invalid_request'],
    [
      24,
      2207008,
      'The media builder with creation id = 17889615691921648 does not exist or has been expired.',
      'transient',
    ],
    [25, 2207050, 'The Instagram account is restricted.', 'invalid_request'],
    [100, 2207023, 'The media type STORY is unknown.', 'invalid_request'],
    [
      100,
      2207028,
      "Your post won't work as a carousel. Carousels need at least 2 photos/videos and no more than 10 photos/videos.",
      'invalid_request',
    ],
    [100, 2207035, 'Product tag positions should not be specified for video media.', 'invalid_request'],
    [100, 2207036, 'Product tag positions are required for photo media.', 'invalid_request'],
    [100, 2207037, "We couldn't add all of your product tags.", 'invalid_request'],
    [100, 2207040, 'Cannot use more than 20 tags per created media.', 'invalid_request'],
    [
      352,
      2207026,
      'The video format is not supported. Please check spec for supported video format',
      'invalid_request',
    ],
    [9004, 2207052, 'The media could not be fetched from this uri: https://example.com/a.jpg', 'invalid_request'],
    [9007, 2207027, 'The media is not ready for publishing, please wait for a moment', 'transient'],
    [36000, 2207004, 'The image is too large to download. It should be less than 8 MiB.', 'invalid_request'],
    [36001, 2207005, 'The image format webp is not supported. Supported formats are: jpeg.', 'invalid_request'],
    [36003, 2207009, 'The submitted image with aspect ratio 3:1 cannot be published.', 'invalid_request'],
    [36004, 2207010, "The submitted image's caption was 2300 characters long.", 'invalid_request'],
  ];

  it.each(instagramPublishing)("Instagram's publishing table: %i/%i %s", (code, subcode, message, kind) => {
    const error = graphError(
      'instagram',
      graphAnswer({ code, error_subcode: subcode, message, is_transient: false }),
      now,
    );
    expect(error.kind).toBe(kind);
    // Refused at once, the platform's own words are what the post's failure says.
    expect(error.detail.platformMessage).toBe(message);
  });

  it('-1 and -2 without a subcode are passing failures; code 10 for too few story viewers is no permission matter', () => {
    expect(graphError('instagram', graphAnswer({ code: -1 }), now).kind).toBe('transient');
    expect(graphError('instagram', graphAnswer({ code: -2 }), now).kind).toBe('transient');
    const fewViewers = graphAnswer({ code: 10, message: '(#10) Not enough viewers for the media to show insights' });
    expect(graphError('instagram', fewViewers, now).kind).toBe('invalid_request');
    expect(
      graphError(
        'instagram',
        graphAnswer({ code: 10, message: '(#10) Application does not have permission for this action' }),
        now,
      ).kind,
    ).toBe('permission_missing');
  });

  it('keeps the platform code, subcode and message for the API user', () => {
    const error = graphError('threads', graphAnswer({ code: 190, error_subcode: 467, message: 'Invalid' }), now);
    expect(error.detail).toEqual({
      platform: 'threads',
      status: 400,
      code: 190,
      subcode: 467,
      platformMessage: 'Invalid',
    });
  });
});
