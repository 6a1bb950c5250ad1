import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { vi } from 'vitest';
import { now } from '../../src/clock.ts';

/** One header's value as a receiver reads it ('' when absent, which the library refuses). */
function header(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

/**
 * Verifies a received delivery's Standard Webhooks headers (webhook-id, webhook-timestamp,
 * webhook-signature) with the reference `standardwebhooks` library, an independent peer of the
 * service's signer, as a receiver given `secret` would: the raw body, the secret as the API
 * showed it. The receiver's clock reads the service's time (tests move it; the library reads
 * Date.now(), so it is set to that for the call). Answers the parsed body; throws the library's
 * WebhookVerificationError when the delivery does not verify.
 */
export function verifyStandardWebhook(
  secret: string,
  received: { headers: IncomingHttpHeaders; body: Buffer },
  atMs: number = now().getTime(),
): unknown {
  const webhook = new Webhook(secret);
  const clock = vi.spyOn(Date, 'now').mockReturnValue(atMs);
  try {
    return webhook.verify(received.body, {
      'webhook-id': header(received.headers, 'webhook-id'),
      'webhook-timestamp': header(received.headers, 'webhook-timestamp'),
      'webhook-signature': header(received.headers, 'webhook-signature'),
    });
  } finally {
    clock.mockRestore();
  }
}

/** The `v1,` entries of a received delivery's webhook-signature header. */
export function standardSignatures(headers: IncomingHttpHeaders): string[] {
  return header(headers, 'webhook-signature').split(' ');
}
