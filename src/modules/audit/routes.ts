import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Db } from '../../db/connection.ts';
import { decodeCursor, toPage } from '../../http/pagination.ts';
import {
  AUTHENTICATED_ERRORS,
  errorResponses,
  ListOf,
  ListQuery,
  ProfileHeader,
  TimeRangeQuery,
  timeBound,
} from '../../http/schemas.ts';
import { AuditEntryJson, renderAuditEntry } from './json.ts';
import { listAuditEntries } from './service.ts';

const IdFilter = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 100, description }));

export function auditRoutes(db: Db): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/audit-log',
      {
        config: { ownerOnly: true },
        schema: {
          tags: ['Audit log'],
          summary: 'List the audit log',
          description:
            "Every change made through the API, the MCP endpoint, the dashboard, and the links clients were sent (approvals, connections, reconnections): who made it, what, when and from where. Newest first. Owner keys only (a profile key: 403 `owner_key_required`); a Service-Profile header narrows it to that profile's entries. Entries are kept for `AUDIT_LOG_RETENTION_DAYS` (365 by default), and outlive a deleted profile until then. `from` and `to` bound `created_at` (both included).",
          headers: ProfileHeader,
          querystring: Type.Object(
            {
              ...ListQuery,
              actor_id: IdFilter(
                "Only changes made by this key or link (`key_...`, `apl_...`, `cl_...`), or by the operator's system user.",
              ),
              profile_id: IdFilter('Only changes made in this profile.'),
              object_id: IdFilter('Only changes of this object (a post, a webhook, a key, ...).'),
              ...TimeRangeQuery('Made'),
            },
            { additionalProperties: false },
          ),
          response: { 200: ListOf(AuditEntryJson), ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      async (request) => {
        const { query, scope } = request;
        const limit = query.limit ?? 50;
        const after = decodeCursor(query.cursor, 'auditEntry');
        // The header's profile and the filter's must both hold: another profile's id finds nothing.
        const profileId = scope.profileId ?? query.profile_id;
        if (query.profile_id !== undefined && query.profile_id !== profileId) return { data: [], next_cursor: null };
        const rows = await listAuditEntries(
          db,
          scope.ownerId,
          {
            actorId: query.actor_id,
            profileId,
            objectId: query.object_id,
            from: timeBound(query.from),
            to: timeBound(query.to),
          },
          { limit, after },
        );
        return toPage(rows, limit, renderAuditEntry);
      },
    );
  };
}
