/**
 * A worker process whose database goes away while it records a job's outcome
 * (docs/deployment.md, "Processes"): the process lives on, records the
 * outcome once the database answers again, and leaves no job locked or done twice.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/connection.ts';
import { auth } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { eventually } from '../helpers/eventually.ts';
import {
  type CliProcess,
  cleanupDataDirs,
  makeDataDir,
  startCli,
  stopAllCli,
  waitForBanner,
} from '../helpers/process.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let database: Database;
let proxy: TcpProxy;
let receiver: Receiver;
let workerEnv: Record<string, string>;
let base: string;
let headers: Record<string, string>;
let endpointId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const direct = new URL(database.url);
  proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port) });
  receiver = await startReceiver();
  const env = {
    SECRET_KEY: randomBytes(32).toString('hex'),
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  };
  // Only the worker's connections go through the proxy: the API stays up throughout.
  const api = startCli(['api'], { ...env, DATABASE_URL: database.url, PORT: '0', DATA_DIR: await makeDataDir() });
  const banner = await waitForBanner(api);
  base = banner.base;
  headers = auth(banner.ownerKey as string);
  const throughProxy = new URL(database.url);
  throughProxy.host = proxy.address;
  workerEnv = { ...env, DATABASE_URL: throughProxy.toString() };
  const created = await fetch(`${base}/v1/webhooks`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ url: receiver.url, events: ['post.published'] }),
  });
  expect(created.status).toBe(201);
  endpointId = ((await created.json()) as { id: string }).id;
}, 120_000);

afterAll(async () => {
  await stopAllCli();
  await receiver?.close();
  await proxy?.close();
  await database?.close();
  await cleanupDataDirs();
});

async function startWorker(): Promise<CliProcess> {
  const worker = startCli(['worker'], { ...workerEnv, DATA_DIR: await makeDataDir() });
  await worker.waitFor(/is running\./, { timeoutMs: 60_000 });
  return worker;
}

/** Sends a `webhook.test` event to the receiver; answers the delivery's id. */
async function sendTest(): Promise<string> {
  const res = await fetch(`${base}/v1/webhooks/${endpointId}/test`, { method: 'POST', headers });
  expect(res.status).toBe(202);
  return ((await res.json()) as { id: string }).id;
}

/** The delivery jobs still in the queue, done or not. */
async function deliveryJobs(): Promise<{ locked: boolean }[]> {
  const { rows } = await database.db.execute<{ locked: boolean }>(
    sql`select locked_at is not null as locked from graphile_worker.jobs where task_identifier = 'deliver_webhooks'`,
  );
  return rows;
}

/** The id of the `deliver_webhooks` job running now (read past the proxy). */
async function runningDeliveryJobId(): Promise<string> {
  const { rows } = await database.db.execute<{ id: string }>(
    sql`select id::text as id from graphile_worker.jobs where task_identifier = 'deliver_webhooks' and locked_at is not null`,
  );
  expect(rows).toHaveLength(1);
  return (rows[0] as { id: string }).id;
}

/**
 * Sends a test event, which the receiver takes with a 200, and takes the database away as the
 * statement that records its job as done goes by; resolves once it has. A delivery job ends in
 * the attempts' group commit after its attempts (src/modules/webhooks/attempts.ts): the cut waits
 * for the end naming this job. A periodic job finishing meanwhile (one runs every minute) passes,
 * and the delivery's own writes go by before it. The run then fails, as it cannot know whether a
 * database that went away kept its attempts: its failure is recorded once the database is back,
 * and the job runs again, sending only what is still unrecorded.
 */
async function deliverThenCutAtCompletion(): Promise<void> {
  receiver.received.length = 0;
  let cut: Promise<void> | undefined;
  const armed = new Promise<void>((resolve, reject) => {
    receiver.respond = (_req, res) => {
      runningDeliveryJobId().then((jobId) => {
        cut = proxy.downAt('switchboard_end_job(j.id', `{"id":"${jobId}"`);
        resolve();
        res.writeHead(200).end('ok');
      }, reject);
    };
  });
  await sendTest();
  await receiver.waitFor(1);
  await armed;
  await cut;
}

function eventIds(): string[] {
  return receiver.received.map((r) => (JSON.parse(r.body.toString('utf8')) as { id: string }).id);
}

describe('a worker process losing its database while it records a job', () => {
  it('a connection lost under the statement that records a finished job: its run fails, its failure is recorded once the database is back, and it runs again without sending again', async () => {
    const worker = await startWorker();
    await deliverThenCutAtCompletion();
    await sleep(2_000);
    expect(worker.exit).toBeUndefined();
    await proxy.up();
    await worker.waitFor(/Failed task \d+ \(deliver_webhooks/);
    // graphile-worker runs a failed job again after its backoff (e^1 s for the first failure).
    await eventually(async () => ((await deliveryJobs()).length === 0 ? true : undefined), 30);
    // Sent once: the attempt recorded before the cut is not made again.
    await sleep(4_000);
    expect(receiver.received).toHaveLength(1);
    await worker.waitFor(/job queue: the database answers again/);
    expect((await worker.stop()).code).toBe(0);
  }, 120_000);

  it('a failed job while the database refuses connections: its failure is recorded once it is back, and it runs again', async () => {
    const worker = await startWorker();
    receiver.received.length = 0;
    receiver.respond = (_req, res) => {
      // The database goes before the delivery can record its attempt, so the job fails, and
      // its failure cannot be recorded either while the database is away.
      void proxy.down().then(() => res.writeHead(200).end('ok'));
    };
    const deliveryId = await sendTest();
    await worker.waitFor(/Failed task \d+ \(deliver_webhooks/);
    await sleep(2_000);
    expect(worker.exit).toBeUndefined();
    receiver.respond = (_req, res) => {
      res.writeHead(200).end('ok');
    };
    await proxy.up();
    // graphile-worker runs a failed job again after its backoff (e^1 s for the first failure).
    const received = await receiver.waitFor(2, 30_000);
    expect(eventIds()[1]).toBe(eventIds()[0]);
    expect(received).toHaveLength(2);
    await eventually(async () => ((await deliveryJobs()).length === 0 ? true : undefined), 30);
    const res = await fetch(`${base}/v1/webhooks/${endpointId}/deliveries`, { headers });
    const { data } = (await res.json()) as { data: { id: string; status: string }[] };
    expect(data.find((d) => d.id === deliveryId)?.status).toBe('succeeded');
    expect((await worker.stop()).code).toBe(0);
  }, 120_000);

  it('a worker stopped while a finished job waits to be recorded: records its run once the database is back, then stops; the job runs again without sending again', async () => {
    const worker = await startWorker();
    await deliverThenCutAtCompletion();
    const stopping = worker.stop('SIGTERM', 60_000);
    await sleep(2_000);
    // Still waiting to record the run, not leaving the job locked.
    expect(worker.exit).toBeUndefined();
    await proxy.up();
    expect((await stopping).code).toBe(0);
    expect(await deliveryJobs()).toEqual([{ locked: false }]);
    const next = await startWorker();
    await eventually(async () => ((await deliveryJobs()).length === 0 ? true : undefined), 30);
    await sleep(2_000);
    expect(receiver.received).toHaveLength(1);
    expect((await next.stop()).code).toBe(0);
  }, 120_000);
});
