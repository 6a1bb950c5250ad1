/**
 * The composer: accounts of one profile, the text with a counter per platform (each counting
 * as the platform does), media uploaded by drag and drop or the file picker with previews,
 * the options of each chosen platform, and publish now or at a time shown in the user's zone
 * beside UTC, and whether the client must approve it first. The API checks everything; its
 * problems are shown at the fields they name.
 */

import { useEffect, useMemo, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { all, answer, api } from '../../api.ts';
import { platformEntry } from '../../catalogue.ts';
import { profileChoices, useProfiles } from '../../choices.tsx';
import { accountLabel } from '../../resources.ts';
import { PATHS, useSession } from '../../session.ts';
import { ErrorNotice, Field, Progress, SelectField, TIME_ZONE, useAction, useLoad } from '../../ui.tsx';
import { MediaField, useUploads } from './media.tsx';
import { PlatformOptions, usePlatformOptions } from './platform-options.tsx';
import { PostText } from './post-text.tsx';
import { Problems, problemsAt } from './problems.tsx';

const utcFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

export function NewPostScreen() {
  const { isOwner, session } = useSession();
  const { route } = useLocation();
  const [profileId, setProfileId] = useState(session.profile_id ?? '');
  const [chosen, setChosen] = useState<string[]>([]);
  const [text, setText] = useState('');
  const uploads = useUploads(profileId);
  const options = usePlatformOptions();
  const [when, setWhen] = useState<'now' | 'later'>('now');
  const [at, setAt] = useState('');
  /** The approval box as the user set it; null while untouched (the profile's setting). */
  const [approvalChoice, setApprovalChoice] = useState<boolean | null>(null);

  const profiles = useProfiles();
  useEffect(() => {
    if (profileId === '' && profiles.data?.[0]) setProfileId(profiles.data[0].id);
  }, [profiles.data, profileId]);
  const accounts = useLoad(
    () =>
      profileId === ''
        ? Promise.resolve([])
        : all('/v1/accounts', { query: { status: 'connected' }, header: { 'service-profile': profileId } }),
    [profileId],
  );
  const accountList = accounts.data ?? [];
  // An owner session reads the profile's setting; a profile key's may not read its profile.
  const profileApproval = profiles.data?.find((p) => p.id === profileId)?.post_approval_required;
  const approvalRequired = approvalChoice ?? profileApproval ?? false;
  const platforms = [...new Set(accountList.filter((a) => chosen.includes(a.id)).map((a) => a.platform))].flatMap(
    (p) => platformEntry(p) ?? [],
  );

  const platformOptions = options.bodyFor(platforms);
  const scheduledAt = when === 'later' && at !== '' ? new Date(at) : null;
  const body = {
    account_ids: chosen,
    ...(text !== '' ? { text } : {}),
    media_ids: uploads.mediaIds,
    ...(scheduledAt ? { scheduled_at: scheduledAt.toISOString() } : {}),
    ...(platformOptions ? { platforms: platformOptions } : {}),
    ...(approvalChoice !== null || profileApproval !== undefined ? { approval: { required: approvalRequired } } : {}),
  };
  // One key per post as written: the same post sent again (a retry after a lost answer)
  // makes one post, and a changed post is a new request with a key of its own.
  const bodyText = JSON.stringify(body);
  const idempotencyKey = useMemo(() => crypto.randomUUID(), [bodyText, profileId]);
  const submit = useAction(() =>
    answer(
      api.POST('/v1/posts', {
        params: { header: { 'service-profile': profileId, 'idempotency-key': idempotencyKey } },
        body,
      }),
    ),
  );

  return (
    <main id="main">
      <p>
        <a href={PATHS.posts}>← Posts</a>
      </p>
      <h1>New post</h1>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const post = await submit.run();
          if (post) route(PATHS.post(post.id));
        }}
      >
        {isOwner ? (
          <SelectField
            label="Profile"
            hint="A post's accounts are all in one profile."
            value={profileId}
            choices={profileChoices(profiles.data)}
            onValue={(id) => {
              setProfileId(id);
              setChosen([]);
              uploads.clear();
              setApprovalChoice(null);
            }}
          />
        ) : null}
        <fieldset aria-invalid={problemsAt(submit.error, 'account_ids', accountList).length > 0}>
          <legend>Accounts</legend>
          {accounts.loading && !accounts.data ? <Progress label="Loading accounts…" /> : null}
          {accounts.data && accountList.length === 0 ? (
            <p class="muted">This profile has no connected account.</p>
          ) : null}
          {accountList.map((a) => (
            <label key={a.id} class="check">
              <input
                type="checkbox"
                checked={chosen.includes(a.id)}
                onChange={(e) =>
                  setChosen(e.currentTarget.checked ? [...chosen, a.id] : chosen.filter((x) => x !== a.id))
                }
              />
              {accountLabel(a)}
            </label>
          ))}
          <Problems id="accounts-problems" messages={problemsAt(submit.error, 'account_ids', accountList)} />
        </fieldset>

        <PostText
          text={text}
          setText={setText}
          platforms={platforms.filter((p) => options.ownText(p.platform) === undefined)}
          error={submit.error}
          accounts={accountList}
        />

        <MediaField uploads={uploads} disabled={profileId === ''} error={submit.error} accounts={accountList} />

        {platforms.map((p) => (
          <PlatformOptions
            key={p.platform}
            platform={p}
            options={options}
            error={submit.error}
            accounts={accountList}
            chosen={chosen}
            profileId={profileId}
          />
        ))}

        <fieldset>
          <legend>Approval</legend>
          <label class="check">
            <input
              type="checkbox"
              aria-describedby="approval-hint"
              checked={approvalRequired}
              onChange={(e) => setApprovalChoice(e.currentTarget.checked)}
            />
            Needs the client's approval
          </label>
          <p id="approval-hint" class="muted small">
            {profileApproval === undefined
              ? "Ticked, the post waits for the client's approval; unticked, the profile's own setting decides."
              : `The profile's setting: ${profileApproval ? 'needed' : 'not needed'}. `}
            {approvalRequired
              ? "Nothing is published before the client approves it: send them an approval link from the post's screen."
              : ''}
          </p>
          <Problems id="approval-problems" messages={problemsAt(submit.error, 'approval', accountList)} />
        </fieldset>

        <fieldset>
          <legend>When</legend>
          <label class="check">
            <input type="radio" name="when" checked={when === 'now'} onChange={() => setWhen('now')} />
            Publish now
          </label>
          <label class="check">
            <input type="radio" name="when" checked={when === 'later'} onChange={() => setWhen('later')} />
            Schedule
          </label>
          {when === 'later' ? (
            <Field
              label={`Date and time (${TIME_ZONE})`}
              hint={scheduledAt ? `That is ${utcFormat.format(scheduledAt)} UTC.` : `Your time zone: ${TIME_ZONE}.`}
            >
              {({ id, describedBy }) => (
                <>
                  <input
                    id={id}
                    type="datetime-local"
                    required
                    aria-describedby={describedBy}
                    aria-invalid={problemsAt(submit.error, 'scheduled_at', accountList).length > 0}
                    value={at}
                    onInput={(e) => setAt(e.currentTarget.value)}
                  />
                  <Problems id={`${id}-p`} messages={problemsAt(submit.error, 'scheduled_at', accountList)} />
                </>
              )}
            </Field>
          ) : null}
        </fieldset>

        <button type="submit" disabled={submit.busy || uploads.busy || chosen.length === 0}>
          {submit.busy ? 'Saving…' : when === 'now' ? 'Publish now' : 'Schedule post'}
        </button>
        {uploads.busy ? <p class="muted small">Waiting for the uploads to finish.</p> : null}
      </form>
      <ErrorNotice error={submit.error} />
    </main>
  );
}
