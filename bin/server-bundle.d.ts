/** The bundle of `entry` at `outFile` (both relative to the project), built first if it is missing or its sources changed. */
export function serverBundle(options?: { entry?: string; outFile?: string }): Promise<{
  /** The bundle's absolute path. */
  path: string;
  /** Whether this call built it. */
  rebuilt: boolean;
}>;
