/**
 * What modules register at start so that no module calls another by name: event subscribers,
 * profile deletion steps, account move checks. A registry is used only once every module has
 * registered (installModules, src/modules.ts, closes them all): an event emitted or a profile
 * deleted before that would silently miss a module's part.
 */
export interface StartupRegistry<T> {
  register(item: T): void;
  /** Every item, in the order registered; throws before installModules has run. */
  items(): readonly T[];
}

const registries: { name: string; close(): void }[] = [];

export function startupRegistry<T>(name: string): StartupRegistry<T> {
  const entries: T[] = [];
  let closed = false;
  registries.push({ name, close: () => (closed = true) });
  return {
    register(item) {
      if (closed) throw new Error(`${name}: registered after start`);
      entries.push(item);
    },
    items() {
      if (!closed) throw new Error(`${name}: used before the modules were installed (installModules)`);
      return entries;
    },
  };
}

/** Ends the start: every registry's items are final from now on. */
export function closeStartupRegistries(): void {
  for (const registry of registries) registry.close();
}
