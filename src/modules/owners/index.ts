/** The owners module's public entry: agencies, each with its default profile and keys. */
export {
  type CreatedOwner,
  createFirstOwnerIfNone,
  createOwner,
  getOwner,
  listOwners,
  lockOwner,
  ownerExists,
} from './service.ts';
