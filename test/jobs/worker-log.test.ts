/**
 * docs/deployment.md, "Logs": a worker's line about a job names the job (id, task, attempt),
 * never its payload, which may hold other people's text, an e-mail address or a sealed token; a
 * job's success is logged at debug, its failure at error. A real worker runs real jobs (one of
 * them an invitation whose e-mail the mail server refuses), its pino lines read back.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, startTestApp, type TestApp } from '../helpers/app.ts';
import { eventually } from '../helpers/eventually.ts';

interface Line {
  level: number;
  msg: string;
  component?: string;
  job?: Record<string, unknown>;
}

const ADDRESS = 'private.person@example.test';
const INVITED = 'invited.person@example.test';
const lines: string[] = [];
let t: TestApp;
/** The invitation's job, queued before the worker started, and the sealed token its payload holds. */
let invitation: { id: string; token: string };

beforeAll(async () => {
  t = await startTestApp({ PUBLIC_URL: 'https://switchboard.example.test' });
  const owner = await t.createOwner('Agency');
  const invited = await t.app.inject({
    method: 'POST',
    url: '/v1/members',
    headers: auth(owner.key),
    payload: { email: INVITED, roles: [{ role: 'viewer', profile_id: null }] },
  });
  expect(invited.statusCode, invited.body).toBe(201);
  const queued = await t.database.pool.query<{ id: string; token: string }>(
    `select j.id::text as id, j.payload->>'token' as token from graphile_worker._private_jobs j join graphile_worker._private_tasks k on k.id = j.task_id where k.identifier = 'send_member_email'`,
  );
  expect(queued.rows).toHaveLength(1);
  invitation = queued.rows[0] as { id: string; token: string };
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  await t.startWorker({
    // debug: every line the worker writes, so the level each is written at is seen.
    log: pino({ level: 'debug' }, capture),
    sendMail: async () => {
      throw new Error('554 the mail server refused the message');
    },
  });
});

afterAll(async () => {
  await t.close();
});

const parsed = () => lines.map((line) => JSON.parse(line) as Line);
const about = (jobId: string) => parsed().filter((line) => line.job?.id === jobId);
const holding = (text: string) => lines.filter((line) => line.includes(text));

async function addSignInJob(payload: object): Promise<string> {
  const result = await t.database.pool.query<{ id: string }>(
    `select id::text as id from graphile_worker.add_job('send_sign_in_links', $1::json, max_attempts => 1)`,
    [JSON.stringify(payload)],
  );
  return result.rows[0]?.id as string;
}

describe('the worker log', () => {
  it('logs a job that fails at error, with its error, by its id and task, without its payload', async () => {
    const { id, token } = invitation;
    const line = await eventually(async () => about(id).find((l) => l.msg.startsWith(`Failed task ${id} `)));
    expect(line.level).toBe(50);
    expect(line.component).toBe('worker');
    expect(line.msg).toContain('(send_member_email, ');
    expect(line.msg).toContain("with error '554 the mail server refused the message'");
    expect(line.job).toEqual({ id, task: 'send_member_email', attempts: 1, max_attempts: 15 });
    expect(token.length).toBeGreaterThan(20);
    expect(holding(token)).toEqual([]);
    expect(holding(INVITED)).toEqual([]);
  });

  it('logs a job that succeeds at debug only, by its id and task, without its payload', async () => {
    const id = await addSignInJob({ email: ADDRESS, asked_at: new Date().toISOString() });
    const line = await eventually(async () => about(id).find((l) => l.msg.startsWith(`Completed task ${id} `)));
    expect(line.level).toBe(20);
    expect(line.component).toBe('worker');
    expect(line.job).toEqual({ id, task: 'send_sign_in_links', attempts: 1, max_attempts: 1 });
    expect(about(id).filter((l) => l.level >= 30)).toEqual([]);
    expect(holding(ADDRESS)).toEqual([]);
  });

  it('drops a job whose payload is malformed, saying where it is wrong but not what it holds', async () => {
    const id = await addSignInJob({ email: ADDRESS, asked_at: 'yesterday' });
    const line = await eventually(async () =>
      parsed().find((l) => l.msg.startsWith(`dropping send_sign_in_links job ${id}: malformed payload (`)),
    );
    expect(line.level).toBe(50);
    expect(line.msg).toContain('/asked_at: ');
    expect(holding(ADDRESS)).toEqual([]);
    expect(holding('yesterday')).toEqual([]);
  });
});
