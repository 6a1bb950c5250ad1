import { describe, expect, it } from 'vitest';
import { MODULES } from '../src/modules.ts';
import { installOrder, type ModuleInstall, type ModuleName } from '../src/registry.ts';

const module = (name: ModuleName, place: Pick<ModuleInstall, 'after' | 'before'> = {}): ModuleInstall => ({
  name,
  ...place,
  install: () => {},
});
const names = (modules: ModuleInstall[]) => modules.map((m) => m.name);

describe("the modules' install order", () => {
  it('is the order docs/architecture.md gives for profile deletion', () => {
    expect(names(installOrder(MODULES))).toEqual([
      'api-keys',
      'members',
      'webhooks',
      'insights',
      'posts',
      'comments',
      'media',
      'connect',
      'reports',
      'accounts',
      'events',
    ]);
  });

  it('moves a module behind what it must come after, and ahead of what it must come before', () => {
    expect(names(installOrder([module('comments', { after: ['posts'] }), module('posts')]))).toEqual([
      'posts',
      'comments',
    ]);
    expect(names(installOrder([module('accounts'), module('media', { before: ['accounts'] })]))).toEqual([
      'media',
      'accounts',
    ]);
    // Free to go either way: the order given.
    expect(names(installOrder([module('media'), module('connect')]))).toEqual(['media', 'connect']);
  });

  it('refuses declarations that cannot all hold, and a place beside a module not installed', () => {
    expect(() =>
      installOrder([module('posts', { after: ['comments'] }), module('comments', { after: ['posts'] })]),
    ).toThrow("the modules' install order cannot hold: posts, comments each wait for another of them");
    expect(() => installOrder([module('posts', { before: ['accounts'] })])).toThrow(
      'module posts is placed relative to accounts, which is not installed',
    );
  });
});
