/**
 * The member and the organizations they administer: `GET /rest/me`, Organization Access
 * Control (`GET /rest/organizationAcls?q=roleAssignee`) and Organization Lookup
 * (`GET /rest/organizations/{id}`).
 */
import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { caller, requireScope } from '../caller.ts';
import { jsonInteger, param } from '../kit.ts';
import type { Store } from '../platform.ts';
import type { SandboxAccount } from '../schema.ts';
import { addPage, pagesOf } from '../store/accounts.ts';
import { administered, call, checkVersionHeaders, organizationUrn, personUrn, SCOPE } from './access.ts';
import { linkedin } from './answers.ts';

/** The organizations a sandbox member administers. */
const ORGANIZATIONS_PER_MEMBER = 2;
const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A member id as LinkedIn's look (`yrZCpj2Z12`): ten letters, digits, dashes or underscores, never only digits. */
export function personId(): string {
  const id = Array.from({ length: 10 }, () => ID_ALPHABET[randomInt(0, ID_ALPHABET.length)]).join('');
  return /^\d+$/.test(id) ? personId() : id;
}

/** Makes the organization pages of a member just made, each with posts of its own. */
export async function addOrganizations(store: Store, member: SandboxAccount): Promise<void> {
  for (let n = 1; n <= ORGANIZATIONS_PER_MEMBER; n += 1) {
    await addPage(store, member, {
      username: `${member.username}.company${n}`,
      name: `${member.name} Company ${n}`,
      instagramBusinessAccountId: null,
    });
  }
}

/** An organization as Organization Lookup answers it to an administrator. */
function renderOrganization(org: SandboxAccount) {
  return {
    id: jsonInteger(org.id),
    $URN: organizationUrn(org.id),
    localizedName: org.name,
    name: { localized: { en_US: org.name }, preferredLocale: { country: 'US', language: 'en' } },
    vanityName: org.username,
    primaryOrganizationType: 'NONE',
    locations: [],
  };
}

/** A paging parameter (`start`, `count`): a non-negative integer, else 400. */
export function nonNegative(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw linkedin.badParameter(`${name} must be a non-negative integer`);
  return n;
}

export function organizationRoutes(app: FastifyInstance, store: Store): void {
  app.get('/rest/me', async (request) => {
    checkVersionHeaders(request, store.now());
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.basicProfile);
    const [first, ...rest] = who.account.name.split(' ');
    return {
      id: who.account.id,
      localizedFirstName: first ?? '',
      localizedLastName: rest.join(' '),
      vanityName: who.account.username,
    };
  });

  app.get('/rest/organizationAcls', async (request) => {
    checkVersionHeaders(request, store.now());
    const who = await caller(store, request, call);
    if (param(request, 'q') !== 'roleAssignee') throw linkedin.badParameter('q must be roleAssignee');
    requireScope(who, call, SCOPE.organizationAdmin);
    const role = param(request, 'role');
    const state = param(request, 'state');
    const start = nonNegative(param(request, 'start'), 0, 'start');
    const count = Math.min(nonNegative(param(request, 'count'), 10, 'count'), 100);
    // Every sandbox member administers their organizations, an approved ADMINISTRATOR role.
    const matching = (role === undefined || role === 'ADMINISTRATOR') && (state === undefined || state === 'APPROVED');
    const orgs = matching ? await pagesOf(store, who.account.id) : [];
    const elements = orgs.slice(start, start + count).map((org) => ({
      roleAssignee: personUrn(who.account.id),
      state: 'APPROVED',
      role: 'ADMINISTRATOR',
      organization: organizationUrn(org.id),
    }));
    return { paging: { count, start, total: orgs.length, links: [] }, elements };
  });

  app.get('/rest/organizations/:id', async (request) => {
    checkVersionHeaders(request, store.now());
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.organizationAdmin);
    const org = await administered(store, who, (request.params as { id: string }).id);
    return renderOrganization(org);
  });
}
