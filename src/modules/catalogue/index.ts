/**
 * The catalogue module's public entry: GET /v1/platforms, the platforms' definitions as the API
 * shows them. It owns no table: what it answers is the definitions and the service's credentials.
 */
export { catalogueRoutes } from './routes.ts';
