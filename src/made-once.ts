/**
 * A value made at its first use and kept: for the fixed parts of a hot path's statements, made
 * at the first call rather than at every one, and not at import, when a module they use may not
 * have run yet (modules that import each other).
 */
export function madeOnce<T>(make: () => T): () => T {
  let made: { readonly value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}
