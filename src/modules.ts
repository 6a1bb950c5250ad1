/**
 * Every module's part in the shared mechanisms, installed once per process before it serves a
 * request or runs a job (buildApp, startWorker): event subscribers, profile deletion steps,
 * account move checks. No module calls another by name for these; each registers here.
 *
 * The order is the order of profile deletion: deliveries of the profile's events, insights, posts, media
 * and links, then the accounts (whose platform access is revoked first; data keyed by accounts goes
 * before them), then the profile's events, then the profile itself.
 */
import { installAccounts } from './modules/accounts/index.ts';
import { installApiKeys } from './modules/api-keys/index.ts';
import { installComments } from './modules/comments/index.ts';
import { installConnect } from './modules/connect/index.ts';
import { deleteProfileEvents } from './modules/events/index.ts';
import { installInsights } from './modules/insights/index.ts';
import { installMedia } from './modules/media/index.ts';
import { installPosts } from './modules/posts/index.ts';
import { registerProfileDeletionStep } from './modules/profiles/index.ts';
import { installWebhooks } from './modules/webhooks/index.ts';
import { closeStartupRegistries } from './registry.ts';

let installed = false;

export function installModules(): void {
  if (installed) return;
  installed = true;
  installApiKeys();
  installWebhooks();
  // Before posts and accounts: its figures are keyed by both.
  installInsights();
  installPosts();
  // After posts: its account move step finds the posts that posts' own step has moved.
  installComments();
  // After posts (which reference media), before accounts.
  installMedia();
  installConnect();
  installAccounts();
  // events is a leaf that knows no other module, so its step is registered here.
  registerProfileDeletionStep({
    module: 'events',
    deleteData: ({ db }, profile) => deleteProfileEvents(db, profile.ownerId, profile.id),
  });
  closeStartupRegistries();
}
