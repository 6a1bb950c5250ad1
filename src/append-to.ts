/**
 * Adds values to the list a map keeps under `key`, making the list on first use. The lists are
 * the map's own (a new array, grown in place), so grouping n values costs n pushes, not a copy of
 * the list so far at each one.
 */
export function appendTo<K, V>(map: Map<K, V[]>, key: K, ...values: readonly V[]): void {
  const list = map.get(key);
  if (list === undefined) {
    map.set(key, [...values]);
    return;
  }
  for (const value of values) list.push(value);
}
