/**
 * The rate limit seen through two `api` processes on one store (the database, or Redis with
 * REDIS_URL): the tests of docs/api-conventions.md, "Rate limit", across processes.
 */
import { auth } from './app.ts';
import { type CliProcess, makeDataDir, startCli, waitForBanner } from './process.ts';

export interface RoundAnswer {
  status: number;
  remaining: string | null;
}

/**
 * Starts two `api` processes with `env`, sends the first owner key's first request to each (the
 * one each process counts against the address, as it has not accepted the key yet), then four
 * rounds of one request to each: answers the statuses of the first two and every round's answer.
 */
export async function alternateOverTwoApis(env: Record<string, string>): Promise<{
  processes: CliProcess[];
  first: number[];
  rounds: RoundAnswer[];
}> {
  const one = startCli(['api'], { ...env, DATA_DIR: await makeDataDir() });
  const { base: a, ownerKey } = await waitForBanner(one);
  const two = startCli(['api'], { ...env, DATA_DIR: await makeDataDir() });
  const { base: b } = await waitForBanner(two);
  const get = async (base: string): Promise<RoundAnswer> => {
    const res = await fetch(`${base}/v1/profiles`, { headers: auth(ownerKey as string) });
    await res.arrayBuffer();
    return { status: res.status, remaining: res.headers.get('ratelimit-remaining') };
  };
  const first = [(await get(a)).status, (await get(b)).status];
  const rounds: RoundAnswer[] = [];
  for (let i = 0; i < 4; i += 1) rounds.push(await get(a), await get(b));
  return { processes: [one, two], first, rounds };
}
