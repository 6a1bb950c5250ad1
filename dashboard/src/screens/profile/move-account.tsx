import { useState } from 'preact/hooks';
import { all, answer, api, SwitchboardError } from '../../api.ts';
import { profileChoices } from '../../choices.tsx';
import { type Account, accountLabel, type Post, type Profile } from '../../resources.ts';
import { PATHS } from '../../session.ts';
import { ErrorNotice, SelectField, Time, useAction } from '../../ui.tsx';

/**
 * Moves an account to another profile (owner sessions). A move refused because posts wait on
 * the account (`409 account_has_scheduled_posts`) lists those posts, each linked.
 */
export function MoveAccount({
  account,
  profiles,
  onMoved,
}: {
  account: Account;
  profiles: readonly Profile[];
  onMoved: () => void;
}) {
  const [target, setTarget] = useState('');
  const [waiting, setWaiting] = useState<Post[] | null>(null);
  const move = useAction(async () => {
    setWaiting(null);
    try {
      return await answer(
        api.POST('/v1/accounts/{id}/move', { params: { path: { id: account.id } }, body: { profile_id: target } }),
      );
    } catch (error) {
      if (error instanceof SwitchboardError && error.code === 'account_has_scheduled_posts') {
        const lists = await Promise.all(
          (['scheduled', 'publishing'] as const).map((status) =>
            all('/v1/posts', { query: { account_id: account.id, status } }),
          ),
        );
        setWaiting(lists.flat());
      }
      throw error;
    }
  });
  const others = profiles.filter((p) => p.id !== account.profile_id);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await move.run()) onMoved();
  };
  return (
    <form class="inline" onSubmit={submit}>
      <SelectField
        label={`Move ${accountLabel(account)} to`}
        required
        none="Choose a profile"
        value={target}
        choices={profileChoices(others)}
        onValue={setTarget}
      />
      <button type="submit" class="secondary small" disabled={move.busy || target === ''}>
        Move
      </button>
      <ErrorNotice error={move.error} />
      {waiting ? (
        <div class="notice warn">
          <p>
            These posts wait to be published on this account. Each post stays in this profile, so the account moves only
            once they are published, cancelled or deleted:
          </p>
          <ul>
            {waiting.map((p) => (
              <li key={p.id}>
                <a href={PATHS.post(p.id)}>{p.text ? p.text.slice(0, 80) : p.id}</a> — {p.status}, due{' '}
                <Time iso={p.scheduled_at} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </form>
  );
}
