/**
 * Polls until `check` returns a value (the effect of a background job, say), for at most
 * `seconds` (10 by default; longer for jobs that make hundreds of platform calls).
 */
export async function eventually<T>(check: () => Promise<T | undefined>, seconds = 10): Promise<T> {
  for (let i = 0; i < seconds * 20; i += 1) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`condition not met within ${seconds} s`);
}
