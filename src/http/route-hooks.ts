/**
 * A route's hooks of one kind (`route.preHandler`, `route.onSend`... of an onRoute hook's route:
 * none, one or a list) as a list, with `hook` added first or last. Hooks added so run on that
 * route only, where hooks of an instance run on every route of it.
 */
export function withHook<T>(hooks: T | T[] | undefined, hook: T, at: 'first' | 'last'): T[] {
  const list = hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
  return at === 'first' ? [hook, ...list] : [...list, hook];
}
