import { useState } from 'preact/hooks';
import { answer, api } from '../../api.ts';
import type { Profile } from '../../resources.ts';
import { ErrorNotice, Progress, useAction } from '../../ui.tsx';

/** Whether the profile's posts need the client's approval unless a post says otherwise (owner sessions). */
export function PostApproval({ profile }: { profile: Profile }) {
  // Shown as asked at once, then as the API answered (or back, when it refused).
  const [on, setOn] = useState(profile.post_approval_required);
  const save = useAction((value: boolean) =>
    answer(
      api.PATCH('/v1/profiles/{id}', {
        params: { path: { id: profile.id } },
        body: { post_approval_required: value },
      }),
    ),
  );
  return (
    <section aria-labelledby="approval-title" class="card">
      <h2 id="approval-title">Post approval</h2>
      <label class="check">
        <input
          type="checkbox"
          checked={on}
          disabled={save.busy}
          onChange={async (e) => {
            const value = e.currentTarget.checked;
            setOn(value);
            const saved = await save.run(value);
            setOn(saved ? saved.post_approval_required : !value);
          }}
        />
        New posts need the client's approval
      </label>
      <p class="muted small">
        {on
          ? 'On: a new post waits until the client approves it through an approval link (a post may say otherwise).'
          : 'Off: new posts are published without approval, unless a post asks for it.'}
      </p>
      {save.busy ? <Progress label="Saving…" /> : null}
      <ErrorNotice error={save.error} />
    </section>
  );
}
