/** The media module's public entry. Posts use media through findMedia and mediaFetchUrl, and object to deletions through registerMediaUseCheck. */

import { profiledBy } from '../../db/profile-of-row.ts';
import type { ModuleInstall } from '../../registry.ts';
import { registerProfileOfObjects } from '../audit/index.ts';
import { registerProfileDeletionStep } from '../profiles/index.ts';
import { mediaProfileDeletion } from './service.ts';
import { media } from './tables.ts';

export { type MediaUrlContext, mediaFetchUrl } from './fetch-urls.ts';
export { mediaFileRoutes } from './file-routes.ts';
export { mediaRoutes } from './routes.ts';
export { findMedia, type MediaItem, type MediaUseCheck, registerMediaUseCheck } from './service.ts';
export { checkMediaStorage } from './stores.ts';

/** The media module's part at start: its media and files go with their profile. */
export const mediaModule: ModuleInstall = {
  name: 'media',
  // Posts reference media: they go first; media go before the accounts.
  after: ['posts'],
  before: ['accounts'],
  install() {
    registerProfileOfObjects(
      profiledBy('media', { table: media, id: media.id, ownerId: media.ownerId, profileId: media.profileId }),
    );
    registerProfileDeletionStep(mediaProfileDeletion);
  },
};
