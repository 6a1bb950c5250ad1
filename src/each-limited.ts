/**
 * `run` over every item, at most `limit` at once: each lane takes the next item as soon as its
 * last one ends, so one slow item holds up only its own lane. The answers come in the items'
 * order; the first failure rejects.
 */
export async function eachLimited<T, R>(
  items: readonly T[],
  limit: number,
  run: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const answers: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      answers[i] = await run(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return answers;
}
