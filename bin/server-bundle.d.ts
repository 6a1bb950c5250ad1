/** The bundle of `entry` at `outFile` (both relative to the project), built first if it is missing or its sources changed. */
export function serverBundle(options?: { entry?: string; outFile?: string }): Promise<{
  /** The bundle's absolute path. */
  path: string;
  /** Whether this call built it. */
  rebuilt: boolean;
}>;

/** Whether the bundle at `outFile` (relative to the project) is current: built from the sources as they are now. */
export function isCurrent(options?: { outFile?: string }): boolean;

/** A source map's text with only the mappings into the project's own files (none into node_modules). */
export function projectMappingsOnly(mapText: string): string;
