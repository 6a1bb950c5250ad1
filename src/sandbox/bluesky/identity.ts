/**
 * Identity, as the AT Protocol resolves it: a handle's HTTPS `/.well-known/atproto-did` (the
 * sandbox cannot answer DNS, so its handles resolve the HTTPS way only), and the PLC directory's
 * DID documents naming the handle back and the account's PDS. Any handle the sandbox is asked
 * about is a user made at first sight, as every sandbox permission page makes one.
 */

import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Store } from '../platform.ts';
import { ensureUser, findAccount } from '../store/accounts.ts';
import { PDS_URL, platform } from './access.ts';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A did:plc: 24 characters of base32 (lower case). */
export function newDid(): string {
  let id = '';
  for (let i = 0; i < 24; i++) id += BASE32[randomInt(0, 32)];
  return `did:plc:${id}`;
}

const SORTABLE = '234567abcdefghijklmnopqrstuvwxyz';

/** A record key in the TID format ("Record Key"): 13 characters of base32-sortable, the first of the lower half. */
export function newTid(): string {
  let key = SORTABLE[randomInt(0, 16)] as string;
  for (let i = 0; i < 12; i++) key += SORTABLE[randomInt(0, 32)];
  return key;
}

/** The sandbox's users are named by handles its dialog takes: labels of letters, digits and underscores. */
const HANDLE = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;
const DIALOG_NAME = /^[A-Za-z0-9._]{1,30}$/;

/** `/<handle>/.well-known/atproto-did`: the handle's DID as plain text. */
export function handleRoutes(app: FastifyInstance, store: Store): void {
  app.get<{ Params: { handle: string } }>('/.well-known/atproto-did', async (request, reply) => {
    const handle = request.params.handle.toLowerCase();
    if (!HANDLE.test(handle) || !DIALOG_NAME.test(handle)) return reply.code(404).type('text/plain').send('Not Found');
    const user = await ensureUser(store, platform, handle);
    return reply.type('text/plain').send(user.id);
  });
}

/** `plc.directory/<did>`: the DID document. */
export function plcRoutes(app: FastifyInstance, store: Store): void {
  app.get<{ Params: { did: string } }>('/:did', async (request, reply) => {
    const user = await findAccount(store, request.params.did);
    if (user === undefined || user.platform !== platform) {
      return reply.code(404).send({ message: `DID not registered: ${request.params.did}` });
    }
    return reply.type('application/did+ld+json').send({
      '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
      id: user.id,
      alsoKnownAs: [`at://${user.username}`],
      verificationMethod: [],
      service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: PDS_URL }],
    });
  });
}
