/** Polls until `check` returns a value (the effect of a background job, say), for at most ~10 s. */
export async function eventually<T>(check: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i += 1) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met within 10 s');
}
