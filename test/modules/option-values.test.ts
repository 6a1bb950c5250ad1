import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { connectSandboxAccount } from '../helpers/sandbox-accounts.ts';

/** GET /v1/accounts/{id}/options/{option}: the values a post option takes for one account (a Pinterest account's boards). */

let sandbox: TestSandbox;
let t: TestApp;
let owner: TestOwner;

beforeAll(async () => {
  sandbox = await startSandbox();
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, undefined, { platforms: sandbox.platforms });
  owner = await t.createOwner();
});
afterAll(async () => {
  await t.close();
  await sandbox.close();
});

async function optionValues(key: string, accountId: string, option: string) {
  return t.app.inject({ method: 'GET', url: `/v1/accounts/${accountId}/options/${option}`, headers: auth(key) });
}

describe('the values of an option for an account', () => {
  it("lists a Pinterest account's boards for board_id, each id with its name", async () => {
    const account = await connectSandboxAccount(t, sandbox, owner, 'pinterest', 'opt_boards');
    const { body } = await sandbox.control('GET', '/users/pinterest/opt_boards');
    const boards = body.pages as { id: string; name: string }[];
    expect(boards.map((b) => b.name)).toEqual(['Ideas', 'Recipes']);
    const res = await optionValues(owner.key, account.id, 'board_id');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      data: boards.map((b) => ({ value: b.id, label: b.name })),
      next_cursor: null,
    });
    // The catalogue names the option as listed.
    const catalogue = await t.app.inject({ method: 'GET', url: '/v1/platforms/pinterest', headers: auth(owner.key) });
    expect(catalogue.json().publishing.listed_options).toEqual(['board_id']);
  });

  it('answers 404 option_not_listed for an option whose values the platform does not list', async () => {
    const account = await connectSandboxAccount(t, sandbox, owner, 'pinterest', 'opt_title');
    const res = await optionValues(owner.key, account.id, 'title');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('option_not_listed');
    const x = await connectSandboxAccount(t, sandbox, owner, 'x', 'opt_x');
    expect((await optionValues(owner.key, x.id, 'board_id')).json().error.code).toBe('option_not_listed');
  });

  it("answers 404 account_not_found for another owner's account", async () => {
    const account = await connectSandboxAccount(t, sandbox, owner, 'pinterest', 'opt_other');
    const stranger = await t.createOwner('Stranger');
    const res = await optionValues(stranger.key, account.id, 'board_id');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('account_not_found');
  });

  it("answers Pinterest's refusal for a missing permission as 422 permission_missing, naming the scopes", async () => {
    const account = await connectSandboxAccount(t, sandbox, owner, 'pinterest', 'opt_refused');
    const fault = await sandbox.control('POST', '/faults', {
      platform: 'pinterest',
      username: 'opt_refused',
      error: 'permission_missing',
      trigger: 'call',
    });
    expect(fault.status).toBe(201);
    const res = await optionValues(owner.key, account.id, 'board_id');
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({
      code: 'permission_missing',
      details: {
        platform: 'pinterest',
        missing_permissions: ['boards:read', 'boards:write', 'pins:read', 'pins:write'],
      },
    });
  });
});
