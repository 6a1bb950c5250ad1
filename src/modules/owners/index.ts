/** The owners module's public entry: agencies, each with its default profile and keys. */
export {
  type CreatedOwner,
  createFirstOwnerIfNone,
  getOwner,
  insertOwner,
  listOwners,
  lockOwner,
  ownerExists,
} from './service.ts';
