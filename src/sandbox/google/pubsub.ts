/**
 * Cloud Pub/Sub's push delivery with authentication, imitated ("Push subscriptions",
 * "Authentication for push subscriptions"): a message published to a topic is POSTed to each
 * push subscription of it as `{"message": {"attributes", "data" (base64), "messageId",
 * "publishTime"}, "subscription"}`, with `Authorization: Bearer <JWT>`, an OpenID Connect token
 * Google signs (RS256) for the subscription's service account (`email`, `email_verified`) and
 * audience (`aud`), issued by `https://accounts.google.com`, valid for an hour. The sandbox
 * signs with a key of its own, made when the process starts, whose public half it serves as
 * Google's OAuth 2.0 certificates (www.googleapis.com/oauth2/v3/certs). A push not answered
 * with a success is sent again a few times (the webhooks' retries). docs/sandbox.md, "Pub/Sub".
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import type { Store } from '../platform.ts';
import { type SandboxPushSubscription, sandboxPushSubscriptions } from '../schema.ts';
import { numericId } from '../store/ids.ts';
import { deliver } from '../webhooks.ts';

/** "Tokens attached to requests sent to push endpoints can be up to one hour old." */
const TOKEN_SECONDS = 3600;
const ISSUER = 'https://accounts.google.com';

interface SigningKey {
  privateKey: CryptoKey;
  jwk: JWK;
}
let signingKey: Promise<SigningKey> | null = null;

/** The key pushes are signed with, made at first use and kept for the process's life. */
function key(): Promise<SigningKey> {
  signingKey ??= (async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    const kid = randomBytes(20).toString('hex');
    return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
  })();
  return signingKey;
}

/** Google's OAuth 2.0 certificates (JWKS) on www.googleapis.com: the key pushes are signed with. */
export function googleCertRoutes(app: FastifyInstance): void {
  app.get('/oauth2/v3/certs', async (_request, reply) =>
    reply.header('cache-control', `public, max-age=${TOKEN_SECONDS}`).send({ keys: [(await key()).jwk] }),
  );
}

/** A push's token for `subscription`, as Pub/Sub signs it, issued now on the sandbox's clock. */
async function pushToken(store: Store, subscription: SandboxPushSubscription): Promise<string> {
  const { privateKey, jwk } = await key();
  const issued = Math.floor(store.now().getTime() / 1000);
  // The service account's numeric id stands in for Google's `sub` and `azp`.
  const subject = numericId();
  return await new SignJWT({ azp: subject, email: subscription.serviceAccountEmail, email_verified: true })
    .setProtectedHeader({ alg: 'RS256', kid: jwk.kid as string, typ: 'JWT' })
    .setIssuer(ISSUER)
    .setSubject(subject)
    .setAudience(subscription.audience)
    .setIssuedAt(issued)
    .setExpirationTime(issued + TOKEN_SECONDS)
    .sign(privateKey);
}

/** Makes or replaces a push subscription (`PUT /_control/pubsub/subscriptions`). */
export async function subscribePush(
  store: Store,
  values: Omit<SandboxPushSubscription, 'createdAt'>,
): Promise<SandboxPushSubscription> {
  const row = { ...values, createdAt: store.now() };
  await store.db
    .insert(sandboxPushSubscriptions)
    .values(row)
    .onConflictDoUpdate({ target: sandboxPushSubscriptions.name, set: row });
  return row;
}

export async function listPushSubscriptions(store: Store): Promise<SandboxPushSubscription[]> {
  return store.db.select().from(sandboxPushSubscriptions).orderBy(sandboxPushSubscriptions.name);
}

export async function deletePushSubscription(store: Store, name: string): Promise<boolean> {
  const rows = await store.db
    .delete(sandboxPushSubscriptions)
    .where(eq(sandboxPushSubscriptions.name, name))
    .returning();
  return rows.length > 0;
}

/**
 * Publishes `data` (JSON) to `topic`: pushed to each push subscription of it, each push its own
 * delivery (listed as `platform`'s). Answers the message's id; a topic without subscriptions
 * keeps nothing, as Pub/Sub drops a message no subscription takes.
 */
export async function publish(store: Store, platform: string, topic: string, data: unknown): Promise<string> {
  const messageId = numericId();
  const publishTime = store.now().toISOString();
  const subscriptions = await store.db
    .select()
    .from(sandboxPushSubscriptions)
    .where(eq(sandboxPushSubscriptions.topic, topic));
  for (const subscription of subscriptions) {
    const encoded = Buffer.from(JSON.stringify(data), 'utf8').toString('base64');
    const body = JSON.stringify({
      message: {
        attributes: {},
        data: encoded,
        messageId,
        message_id: messageId,
        publishTime,
        publish_time: publishTime,
      },
      subscription: subscription.name,
    });
    await deliver(store, {
      platform,
      callbackUrl: subscription.pushEndpoint,
      body,
      authorization: `Bearer ${await pushToken(store, subscription)}`,
    });
  }
  return messageId;
}
