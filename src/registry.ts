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

/** The modules that take part in the shared mechanisms, by name. */
export type ModuleName =
  | 'api-keys'
  | 'webhooks'
  | 'insights'
  | 'posts'
  | 'comments'
  | 'media'
  | 'connect'
  | 'accounts'
  | 'reports'
  | 'events'
  | 'members';

/**
 * A module's part in the shared mechanisms, and where it must stand among the others. Registries
 * run their items in registration order (profile deletion deletes in that order; account move
 * steps run in it), so a module whose part depends on another's says so here: `after` the modules
 * whose part must come first, `before` those whose part must come later.
 */
export interface ModuleInstall {
  name: ModuleName;
  after?: readonly ModuleName[];
  before?: readonly ModuleName[];
  install(): void;
}

/**
 * The modules in an order every declaration holds in (among modules free to go either way,
 * the order given), or an error naming the modules whose declarations cannot all hold, or a
 * declaration about a module not given.
 */
export function installOrder(modules: readonly ModuleInstall[]): ModuleInstall[] {
  const names = new Set(modules.map((m) => m.name));
  const firsts = new Map<ModuleName, Set<ModuleName>>(modules.map((m) => [m.name, new Set(m.after)]));
  for (const module of modules) {
    for (const other of [...(module.after ?? []), ...(module.before ?? [])]) {
      if (!names.has(other))
        throw new Error(`module ${module.name} is placed relative to ${other}, which is not installed`);
    }
    for (const later of module.before ?? []) firsts.get(later)?.add(module.name);
  }
  const ordered: ModuleInstall[] = [];
  const placed = new Set<ModuleName>();
  while (ordered.length < modules.length) {
    const next = modules.find(
      (m) => !placed.has(m.name) && [...(firsts.get(m.name) ?? [])].every((f) => placed.has(f)),
    );
    if (next === undefined) {
      const left = modules.filter((m) => !placed.has(m.name)).map((m) => m.name);
      throw new Error(`the modules' install order cannot hold: ${left.join(', ')} each wait for another of them`);
    }
    ordered.push(next);
    placed.add(next.name);
  }
  return ordered;
}
