/** The profiles module's public entry. Other modules plug into profile deletion through registerProfileDeletionStep. */
export {
  type DeletedProfile,
  type ProfileDeletionContext,
  type ProfileDeletionStep,
  registerProfileDeletionStep,
} from './deletion.ts';
export { ProfileParams } from './json.ts';
export { profileRoutes } from './routes.ts';
export {
  completeProfileDeletion,
  createDefaultProfile,
  creationProfileId,
  findProfile,
  getProfile,
  profilesBeingDeleted,
} from './service.ts';
