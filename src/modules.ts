/**
 * Every module's part in the shared mechanisms, installed once per process before it serves a
 * request or runs a job (buildApp, startWorker): event subscribers, profile deletion steps,
 * account move checks. No module calls another by name for these; each registers here.
 *
 * The order is the order of profile deletion: the data keyed by accounts (posts) before the
 * accounts, and the accounts (whose platform access is revoked first) last.
 */

import { installAccounts } from './modules/accounts/index.ts';
import { installApiKeys } from './modules/api-keys/index.ts';
import { installConnect } from './modules/connect/index.ts';
import { installPosts } from './modules/posts/index.ts';
import { installWebhooks } from './modules/webhooks/index.ts';
import { closeStartupRegistries } from './registry.ts';

let installed = false;

export function installModules(): void {
  if (installed) return;
  installed = true;
  installApiKeys();
  installWebhooks();
  installConnect();
  installPosts();
  installAccounts();
  closeStartupRegistries();
}
