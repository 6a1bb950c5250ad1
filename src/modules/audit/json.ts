/** How the API shows an audit entry: the schema and the one function that renders an entry to it. */
import { type Static, Type } from 'typebox';
import { Timestamp } from '../../http/schemas.ts';
import type { AuditEntry } from './tables.ts';

const Text = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const AuditEntryJson = Type.Object(
  {
    id: Type.String({ description: 'Entry id, `aud_...`; entries sort by it as by time.' }),
    created_at: Timestamp,
    actor: Type.Object(
      {
        type: Type.Union(
          [
            Type.Literal('api_key'),
            Type.Literal('member'),
            Type.Literal('approval_link'),
            Type.Literal('connect_link'),
            Type.Literal('reconnect_link'),
            Type.Literal('operator'),
          ],
          {
            description:
              "An API key (through the API, the MCP endpoint or a dashboard session signed in with it); a member (a person signed in to the dashboard); the link a client used on a hosted page: an approval link (an approval or a request for changes), a connect link (accounts connected) or a reconnect link (an account reconnected); or the service's operator, through a command of the CLI (`switchboard owners create`, `keys create`, `keys delete`).",
          },
        ),
        id: Type.String({
          description:
            "The key id (`key_...`), the member id (`mem_...`), the link id (`apl_...`, `cl_...`), or the system user that ran the operator's command (`uid N` for a user without a name).",
        }),
        name: Text(
          "The key's name when it was used, or the member's e-mail address (null for a key without a name, a link and the operator).",
        ),
      },
      { description: 'Who made the change.' },
    ),
    via: Type.Union(
      [
        Type.Literal('api'),
        Type.Literal('dashboard'),
        Type.Literal('approval_page'),
        Type.Literal('connect_page'),
        Type.Literal('cli'),
      ],
      {
        description:
          '`api` (a key in the Authorization header), `dashboard` (a session cookie), the hosted page of a link: `approval_page`, `connect_page` (connect and reconnect links), or `cli` (a command the operator ran).',
      },
    ),
    operation: Type.String({
      description:
        'The method and path of the operation, as this document names it (`POST /v1/posts`, `DELETE /v1/webhooks/{id}`); for a hosted page, `POST /approve/{token}` (an approval decision), `GET /connect/callback/{platform}` (a login back from the platform) or `POST /connect/{token}/pages` (a choice of pages); for a command of the CLI, `switchboard owners create`, `switchboard keys create` or `switchboard keys delete`.',
    }),
    object_id: Text(
      "The id of what was changed: the resource a 201 created (its `id`; a link, whose answer has none, is recorded under the profile, account or post it is for), else the last id in the path (`DELETE /v1/profiles/{id}/api-keys/{keyId}`: the key; a profile named by its `external_id`: the profile's id), else the id of the resource answered. A link's use: the account it connected or reconnected (an entry per account). Null when the change names none (a sign-out).",
    ),
    profile_id: Text(
      "The profile the change was made in: the request's (a profile key's, or the `Service-Profile` header's; a profile key's sign-in too), else the profile of what the path addresses as it was before the change (a deleted webhook's; for a move, the profile left), else the answer's `profile_id`, else the profile a change created. Null for owner-level changes (redirect origins, connect settings, an owner key's sessions, platform apps, an endpoint for every profile).",
    ),
    status: Type.Integer({ description: 'The HTTP status the change was answered with; 0 for a command of the CLI.' }),
    request_id: Type.String({
      description: 'The `Request-Id` the answer carried; for a command of the CLI, an id drawn for that run.',
    }),
    ip: Text(
      'The address the request came from, as this server saw it (a proxy in front shows its own); null for a command of the CLI.',
    ),
    user_agent: Text(
      'The `User-Agent` the request sent (its first 512 characters): text the caller chose, to be shown as text.',
    ),
  },
  { $id: 'AuditEntry', title: 'AuditEntry' },
);

export function renderAuditEntry(e: AuditEntry): Static<typeof AuditEntryJson> {
  return {
    id: e.id,
    created_at: e.createdAt.toISOString(),
    actor: {
      type: e.actorType,
      id: e.actorId,
      name: e.actorName,
    },
    via: e.via,
    operation: e.operation,
    object_id: e.objectId,
    profile_id: e.profileId,
    status: e.status,
    request_id: e.requestId,
    ip: e.ip,
    user_agent: e.userAgent,
  };
}
