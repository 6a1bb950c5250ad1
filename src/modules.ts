/**
 * Every module's part in the shared mechanisms, installed once per process before it serves a
 * request or runs a job (buildApp, startWorker): event subscribers, profile deletion steps,
 * account move checks. No module calls another by name for these; each registers here, in the
 * order its declared place among the others gives (`ModuleInstall`, src/registry.ts), which is
 * checked when the process starts.
 */
import { accountsModule } from './modules/accounts/index.ts';
import { apiKeysModule } from './modules/api-keys/index.ts';
import { commentsModule } from './modules/comments/index.ts';
import { connectModule } from './modules/connect/index.ts';
import { deleteProfileEvents } from './modules/events/index.ts';
import { insightsModule } from './modules/insights/index.ts';
import { mediaModule } from './modules/media/index.ts';
import { membersModule } from './modules/members/index.ts';
import { postsModule } from './modules/posts/index.ts';
import { registerProfileDeletionStep } from './modules/profiles/index.ts';
import { reportsModule } from './modules/reports/index.ts';
import { webhooksModule } from './modules/webhooks/index.ts';
import { closeStartupRegistries, installOrder, type ModuleInstall } from './registry.ts';

/**
 * events is a leaf that knows no other module (profiles emits through it), so its deletion step
 * is registered here: the profile's events go after everything that may still emit one.
 */
const eventsModule: ModuleInstall = {
  name: 'events',
  after: ['accounts', 'webhooks'],
  install() {
    registerProfileDeletionStep({
      module: 'events',
      deleteData: ({ db }, profile) => deleteProfileEvents(db, profile.ownerId, profile.id),
    });
  },
};

export const MODULES: readonly ModuleInstall[] = [
  apiKeysModule,
  membersModule,
  webhooksModule,
  insightsModule,
  postsModule,
  commentsModule,
  mediaModule,
  connectModule,
  reportsModule,
  accountsModule,
  eventsModule,
];

let installed = false;

export function installModules(): void {
  if (installed) return;
  installed = true;
  for (const module of installOrder(MODULES)) module.install();
  closeStartupRegistries();
}
