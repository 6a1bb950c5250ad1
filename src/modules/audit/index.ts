/** The audit module's public entry: the record of every change, who made it, and from where. */

export { registerProfileOfObjects } from './profile-of.ts';
export { installChangeRecording } from './recording.ts';
export { auditRoutes } from './routes.ts';
export { deleteOldAuditEntries, recordAuditEntry, recordCommand } from './service.ts';
