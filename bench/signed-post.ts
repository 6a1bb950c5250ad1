/**
 * A delivery's POST as the webhook bench's floors send it, straight with undici: the headers the
 * service sends, and a real `Service-Signature` computed for each request.
 */
import { type Agent, request } from 'undici';
import { USER_AGENT } from '../src/modules/webhooks/attempts.ts';
import { signatureHeader } from '../src/webhook-signature.ts';
import { EVENT_TYPE } from './fanout.ts';

/** Sends `body` to `url` signed with `secret`; returns the answer's status once its body is read. */
export async function postSigned(
  agent: Agent,
  url: string,
  secret: string,
  body: string,
  deliveryId: string,
): Promise<number> {
  const response = await request(url, {
    dispatcher: agent,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'service-signature': signatureHeader(body, [secret], Math.floor(Date.now() / 1000)),
      'service-event': EVENT_TYPE,
      'service-delivery': deliveryId,
    },
    body,
  });
  await response.body.text();
  return response.statusCode;
}
