/**
 * The package's public entry (`import { verifyWebhook } from 'switchboard'`): what a webhook
 * receiver needs. It pulls in nothing of the service itself, only node:crypto.
 * See docs/webhooks.md.
 */
export { type VerifyOptions, verifyWebhook } from './webhook-signature.ts';
