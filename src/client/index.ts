/**
 * The typed client of the Switchboard API (`import { createClient } from 'switchboard/client'`),
 * built on openapi-fetch and typed by the service's OpenAPI document (openapi-types.ts, generated
 * by `npm run build:client`). It ships to users: it imports nothing of the service, only its own
 * files and openapi-fetch (a dependency-cruiser rule holds it to that). See docs/client.md.
 */
export { type ClientOptions, createClient, type SwitchboardClient } from './client.ts';
export { type ErrorBody, SwitchboardError } from './errors.ts';
export type { components, paths } from './openapi-types.ts';
export {
  type ListItem,
  type ListParameters,
  type ListPath,
  type PaginateOptions,
  paginate,
} from './pagination.ts';
export type { RetryOptions } from './retry.ts';
export { countText, type TextCountingRule, textLength } from './text-length.ts';
