/** The platform-apps module's public entry: owners' own apps on the platforms that take one. */
export { platformAppRoutes } from './routes.ts';
export { ownerAppCredentials, platformsAvailableTo } from './service.ts';
