/**
 * What deleting a profile does to each module's data. Modules that keep data per profile
 * register a step at start (src/modules.ts); the profiles module runs them and depends on
 * none of them. The order of registration is the order of deletion.
 */
import type { Logger } from 'pino';
import type { FileStoreSettings } from '../../config.ts';
import type { Db, Tx } from '../../db/connection.ts';
import type { PlatformSet } from '../../platforms/index.ts';
import { startupRegistry } from '../../registry.ts';

/** The profile being deleted (its row is kept, marked deleted, until every step is done). */
export interface DeletedProfile {
  id: string;
  ownerId: string;
}

/** What a step may use: the background job's database, secrets, data directory, platform adapters and log. */
export interface ProfileDeletionContext {
  db: Db;
  secretKey: Buffer;
  /** Where files (media) are kept. */
  files: FileStoreSettings;
  platforms: PlatformSet;
  log: Pick<Logger, 'info' | 'warn'>;
}

export interface ProfileDeletionStep {
  /** The module the step belongs to, for logs. */
  module: string;
  /**
   * In the transaction of `DELETE /v1/profiles/{id}`: what must stop at once (the profile's
   * API keys, the endpoints bound to it).
   */
  revokeAccess?: (tx: Tx, profile: DeletedProfile) => Promise<void>;
  /**
   * In the background deletion job, after the previous modules' steps: deletes the module's
   * data of the profile. A failed job runs again, so a step must be safe to repeat.
   */
  deleteData?: (context: ProfileDeletionContext, profile: DeletedProfile) => Promise<void>;
}

const steps = startupRegistry<ProfileDeletionStep>('profile deletion steps');

export function registerProfileDeletionStep(step: ProfileDeletionStep): void {
  steps.register(step);
}

export function deletionSteps(): readonly ProfileDeletionStep[] {
  return steps.items();
}
