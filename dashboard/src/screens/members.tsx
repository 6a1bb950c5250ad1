/**
 * Members: the owner's people, with their roles, whether they accepted their invitation, and
 * when they last signed in; inviting one by e-mail, sending an invitation again, and removing one
 * (its open sessions end at once). Names and addresses are other people's text, shown as text.
 */
import { useState } from 'preact/hooks';
import { all, answer, api } from '../api.ts';
import { profileChoices, useProfiles } from '../choices.tsx';
import type { Member, MemberRoleName, Profile } from '../resources.ts';
import {
  Badge,
  Confirm,
  ErrorNotice,
  LoadedTable,
  problemAt,
  SelectField,
  TextField,
  Time,
  useAction,
  useConfirmed,
  useLoad,
} from '../ui.tsx';

const ROLE_LABELS: Record<MemberRoleName, string> = {
  admin: 'Admin: everything, members and keys included',
  editor: 'Editor: posts, media, comments, connect links, insights',
  viewer: 'Viewer: reads everything, changes nothing',
  client: 'Client: its profile, its posts and their insights',
};

function roleText(member: Member, profiles: readonly Profile[]): string {
  if (member.roles.length === 0) return 'No role: sees nothing';
  return member.roles
    .map((r) => {
      const where =
        r.profile_id === null ? 'every profile' : (profiles.find((p) => p.id === r.profile_id)?.name ?? r.profile_id);
      return `${r.role} on ${where}`;
    })
    .join('; ');
}

function InviteMember({ profiles, onInvited }: { profiles: readonly Profile[]; onInvited: () => void }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<MemberRoleName>('editor');
  const [profileId, setProfileId] = useState('');
  const [invited, setInvited] = useState<Member | null>(null);
  const invite = useAction(() =>
    answer(
      api.POST('/v1/members', {
        body: {
          email: email.trim(),
          ...(name.trim() !== '' ? { name: name.trim() } : {}),
          roles: [{ role, profile_id: profileId === '' ? null : profileId }],
        },
      }),
    ),
  );
  const submit = async (event: Event) => {
    event.preventDefault();
    const member = await invite.run();
    if (member) {
      setInvited(member);
      setEmail('');
      setName('');
      onInvited();
    }
  };
  return (
    <section class="card" aria-labelledby="invite-member">
      <h2 id="invite-member">Invite a member</h2>
      <form onSubmit={submit}>
        <TextField
          label="E-mail address"
          hint="The invitation goes there: a link that works once, for 7 days."
          error={problemAt(invite.error, 'body.email')}
          type="email"
          required
          value={email}
          onValue={setEmail}
        />
        <TextField
          label="Name (optional)"
          error={problemAt(invite.error, 'body.name')}
          value={name}
          onValue={setName}
        />
        <SelectField
          label="Role"
          error={problemAt(invite.error, 'body.roles')}
          value={role}
          choices={(Object.keys(ROLE_LABELS) as MemberRoleName[]).map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
          onValue={(value) => setRole(value as MemberRoleName)}
        />
        <SelectField
          label="Where"
          hint="A member without a role on a profile does not see it."
          none="Every profile"
          value={profileId}
          choices={profileChoices(profiles)}
          onValue={setProfileId}
        />
        <button type="submit" disabled={invite.busy}>
          {invite.busy ? 'Inviting…' : 'Invite'}
        </button>
      </form>
      <ErrorNotice error={invite.error} />
      {invited ? (
        <p class="notice" role="status">
          Invited {invited.email}. The invitation is on its way.
        </p>
      ) : null}
    </section>
  );
}

function MemberRow({
  member,
  profiles,
  onChanged,
}: {
  member: Member;
  profiles: readonly Profile[];
  onChanged: () => void;
}) {
  const remove = useConfirmed(
    (m: Member) => answer(api.DELETE('/v1/members/{id}', { params: { path: { id: m.id } } })),
    onChanged,
  );
  const resend = useAction(() =>
    answer(api.POST('/v1/members/{id}/invitation', { params: { path: { id: member.id } } })),
  );
  return (
    <tr>
      <td>
        {member.email}
        {member.name ? <p class="small muted">{member.name}</p> : null}
      </td>
      <td>{roleText(member, profiles)}</td>
      <td>
        {member.status === 'active' ? (
          <Badge value="active" tone="good" />
        ) : (
          <>
            <Badge value="invited" tone="warn" />
            <p class="small muted">
              {member.invitation_expires_at ? (
                <>
                  Until <Time iso={member.invitation_expires_at} />
                </>
              ) : (
                'The invitation has expired.'
              )}
            </p>
          </>
        )}
      </td>
      <td>{member.last_sign_in_at ? <Time iso={member.last_sign_in_at} /> : 'Never'}</td>
      <td>
        {member.status === 'invited' ? (
          <button
            type="button"
            class="secondary small"
            disabled={resend.busy}
            onClick={() => void resend.run().then(onChanged)}
          >
            Send the invitation again
          </button>
        ) : null}
        <button type="button" class="danger small" onClick={() => remove.ask(member)}>
          Remove
        </button>
        <ErrorNotice error={resend.error} />
        <Confirm {...remove.dialog} title={`Remove ${member.email}?`} confirmLabel="Remove">
          <p>Their roles go, and if they are signed in, they are signed out at once.</p>
        </Confirm>
      </td>
    </tr>
  );
}

export function MembersScreen() {
  const members = useLoad(() => all('/v1/members', {}), []);
  const profiles = useProfiles().data ?? [];
  return (
    <main id="main">
      <h1>Members</h1>
      <p class="muted">
        People who sign in to this dashboard as themselves, with a role for every profile or for one. Programs use API
        keys.
      </p>
      <LoadedTable
        loaded={members}
        loadingLabel="Loading members…"
        empty="No members yet."
        caption="Members"
        columns={['Member', 'Role', 'Status', 'Last sign-in', 'Actions']}
        rows={(items) =>
          items.map((m) => <MemberRow key={m.id} member={m} profiles={profiles} onChanged={members.reload} />)
        }
      />
      <InviteMember profiles={profiles} onInvited={members.reload} />
    </main>
  );
}
