/**
 * The composer: accounts of one profile, the text with a counter per platform (each counting
 * as the platform does), media uploaded by drag and drop or the file picker with previews,
 * the options of each chosen platform, and publish now or at a time shown in the user's zone
 * beside UTC, and whether the client must approve it first. The API checks everything; its problems are shown at the fields they name.
 */

import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { all, answer, api } from '../api.ts';
import { profileChoices, useProfiles } from '../choices.tsx';
import { type Platform, platformLabel, textRule } from '../platforms.ts';
import { type Account, accountLabel, type Media, type RequestBody } from '../resources.ts';
import { PATHS, useSession } from '../session.ts';
import { ErrorNotice, Field, Progress, problemsOf, SelectField, TIME_ZONE, useAction, useLoad } from '../ui.tsx';

interface Upload {
  key: string;
  name: string;
  preview: string | null;
  state: 'uploading' | 'done' | 'failed';
  media?: Media;
  error?: unknown;
}

type Options = Record<string, Record<string, string | boolean>>;

/** The options of a post as the API takes them. */
type PostOptions = NonNullable<RequestBody<'/v1/posts', 'post'>['platforms']>;

/** The problems the API named for `field` (its `details`), with `body.` or without. */
function problemsAt(error: unknown, field: string, accounts: Account[]): string[] {
  return problemsOf(error)
    .filter((p) => p.field === field || p.field === `body.${field}` || p.field?.startsWith(`${field}[`))
    .map((p) => {
      const account = typeof p.account_id === 'string' ? accounts.find((a) => a.id === p.account_id) : undefined;
      return `${account ? `${accountLabel(account)}: ` : ''}${p.message ?? ''}`;
    });
}

function Problems({ id, messages }: { id: string; messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <ul id={id} class="field-error plain">
      {messages.map((m) => (
        <li key={m}>{m}</li>
      ))}
    </ul>
  );
}

const utcFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

function PlatformOptions({
  platform,
  options,
  setOption,
  error,
  accounts,
}: {
  platform: Platform;
  options: Options;
  setOption: (platform: Platform, name: string, value: string | boolean | undefined) => void;
  error: unknown;
  accounts: Account[];
}) {
  const value = (name: string) => options[platform]?.[name];
  const at = (name: string) => problemsAt(error, `platforms.${platform}.${name}`, accounts);
  const select = (name: string, label: string, choices: string[], hint?: string) => (
    <Field label={label} hint={hint}>
      {({ id, describedBy }) => (
        <>
          <select
            id={id}
            aria-describedby={[describedBy, at(name).length ? `${id}-p` : null].filter(Boolean).join(' ') || undefined}
            aria-invalid={at(name).length > 0}
            value={String(value(name) ?? '')}
            onChange={(e) => setOption(platform, name, e.currentTarget.value || undefined)}
          >
            <option value="">{hint ? 'Choose…' : 'Default'}</option>
            {choices.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
          <Problems id={`${id}-p`} messages={at(name)} />
        </>
      )}
    </Field>
  );
  const text = (name: string, label: string) => (
    <Field label={label}>
      {({ id }) => (
        <>
          <input
            id={id}
            aria-invalid={at(name).length > 0}
            value={String(value(name) ?? '')}
            onInput={(e) => setOption(platform, name, e.currentTarget.value || undefined)}
          />
          <Problems id={`${id}-p`} messages={at(name)} />
        </>
      )}
    </Field>
  );
  const check = (name: string, label: string) => (
    <label class="check">
      <input
        type="checkbox"
        checked={value(name) === true}
        onChange={(e) => setOption(platform, name, e.currentTarget.checked ? true : undefined)}
      />
      {label}
    </label>
  );
  return (
    <fieldset>
      <legend>{platformLabel(platform)} options</legend>
      {platform === 'instagram' ? (
        <>
          {select('type', 'Instagram post type', ['feed', 'reel', 'story'])}
          {text('first_comment', 'First comment (optional)')}
        </>
      ) : null}
      {platform === 'threads' ? (
        <>
          {select('reply_control', 'Who may reply', [
            'everyone',
            'accounts_you_follow',
            'mentioned_only',
            'parent_post_author_only',
            'followers_only',
          ])}
          {text('topic_tag', 'Topic tag (optional)')}
        </>
      ) : null}
      {platform === 'tiktok' ? (
        <>
          {select(
            'privacy_level',
            'TikTok privacy level',
            ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
            'Required: who may watch, among the options TikTok offers the account.',
          )}
          {check('disable_comment', 'Turn off comments')}
          {check('disable_duet', 'Turn off duets')}
          {check('disable_stitch', 'Turn off stitches')}
          {check('brand_content_toggle', 'Branded content (paid partnership)')}
          {check('brand_organic_toggle', 'Your brand (promotional content)')}
        </>
      ) : null}
      {platform === 'facebook' ? text('link', 'Link to share (optional)') : null}
    </fieldset>
  );
}

export function NewPostScreen() {
  const { isOwner, session } = useSession();
  const { route } = useLocation();
  const [profileId, setProfileId] = useState(session.profile_id ?? '');
  const [chosen, setChosen] = useState<string[]>([]);
  const [text, setText] = useState('');
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [options, setOptions] = useState<Options>({});
  const [when, setWhen] = useState<'now' | 'later'>('now');
  const [at, setAt] = useState('');
  const [dragging, setDragging] = useState(false);
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
  const platforms = [...new Set(accountList.filter((a) => chosen.includes(a.id)).map((a) => a.platform))];
  // Previews are object URLs of the chosen files; they go when the composer does.
  const shown = useRef<Upload[]>([]);
  shown.current = uploads;
  useEffect(
    () => () => {
      for (const u of shown.current) if (u.preview) URL.revokeObjectURL(u.preview);
    },
    [],
  );

  const upload = async (files: FileList | File[]) => {
    for (const file of Array.from(files)) {
      const key = crypto.randomUUID();
      const preview =
        file.type.startsWith('image/') || file.type.startsWith('video/') ? URL.createObjectURL(file) : null;
      setUploads((list) => [...list, { key, name: file.name, preview, state: 'uploading' }]);
      const form = new FormData();
      form.append('file', file);
      try {
        const media = await answer(
          api.POST('/v1/media', {
            params: { header: { 'service-profile': profileId } },
            // The form is what is sent; the body only names its part for the type.
            body: { file: file.name },
            bodySerializer: () => form,
          }),
        );
        setUploads((list) => list.map((u) => (u.key === key ? { ...u, state: 'done', media } : u)));
      } catch (error) {
        setUploads((list) => list.map((u) => (u.key === key ? { ...u, state: 'failed', error } : u)));
      }
    }
  };

  const scheduledAt = when === 'later' && at !== '' ? new Date(at) : null;
  const body = {
    account_ids: chosen,
    ...(text !== '' ? { text } : {}),
    media_ids: uploads.flatMap((u) => (u.media ? [u.media.id] : [])),
    ...(scheduledAt ? { scheduled_at: scheduledAt.toISOString() } : {}),
    // Each option is one the platform's fields below offer, by the name the API takes.
    ...(Object.keys(options).length > 0 ? { platforms: options as PostOptions } : {}),
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
  const setOption = (platform: Platform, name: string, value: string | boolean | undefined) => {
    const current = { ...(options[platform] ?? {}) };
    if (value === undefined) delete current[name];
    else current[name] = value;
    const next = { ...options, [platform]: current };
    if (Object.keys(current).length === 0) delete next[platform];
    setOptions(next);
  };
  const busyUploading = uploads.some((u) => u.state === 'uploading');

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
              setUploads([]);
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

        <Field label="Text">
          {({ id }) => (
            <>
              <textarea
                id={id}
                aria-describedby={`${id}-counts`}
                aria-invalid={problemsAt(submit.error, 'text', accountList).length > 0}
                value={text}
                onInput={(e) => setText(e.currentTarget.value)}
              />
              <ul id={`${id}-counts`} class="plain counters small" aria-live="polite">
                {platforms.map((p) => {
                  const rule = textRule(p);
                  const length = rule.length(text);
                  return (
                    <li key={p} class={length > rule.max ? 'counter over' : 'counter'}>
                      {platformLabel(p)}: {length} / {rule.max}
                      <span class="visually-hidden"> ({rule.unit})</span>
                      {length > rule.max ? ' — too long' : ''}
                    </li>
                  );
                })}
              </ul>
              <Problems id={`${id}-p`} messages={problemsAt(submit.error, 'text', accountList)} />
            </>
          )}
        </Field>

        <fieldset>
          <legend>Media</legend>
          <label
            class={`dropzone${dragging ? ' dragging' : ''}`}
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={(e) => {
              e.preventDefault();
              setDragging(false);
              if (e.dataTransfer?.files) void upload(e.dataTransfer.files);
            }}
          >
            Drop images or videos here, or choose files
            <input
              type="file"
              multiple
              accept="image/*,video/*"
              disabled={profileId === ''}
              onChange={(e) => {
                if (e.currentTarget.files) void upload(e.currentTarget.files);
                e.currentTarget.value = '';
              }}
            />
          </label>
          <ul class="plain previews">
            {uploads.map((u) => (
              <li key={u.key} class="preview">
                {u.preview && u.media?.type !== 'video' && !u.name.match(/\.(mp4|mov|webm)$/i) ? (
                  <img src={u.preview} alt={`Preview of ${u.name}`} />
                ) : null}
                <span class="small">{u.name}</span>
                {u.state === 'uploading' ? <Progress label={`Uploading ${u.name}…`} /> : null}
                {u.state === 'done' ? <span class="small muted"> uploaded</span> : null}
                {u.state === 'failed' ? <ErrorNotice error={u.error} /> : null}
                <button
                  type="button"
                  class="secondary small"
                  onClick={() => setUploads(uploads.filter((x) => x.key !== u.key))}
                >
                  Remove<span class="visually-hidden"> {u.name}</span>
                </button>
              </li>
            ))}
          </ul>
          <Problems id="media-problems" messages={problemsAt(submit.error, 'media_ids', accountList)} />
        </fieldset>

        {platforms.map((p) => (
          <PlatformOptions
            key={p}
            platform={p}
            options={options}
            setOption={setOption}
            error={submit.error}
            accounts={accountList}
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

        <button type="submit" disabled={submit.busy || busyUploading || chosen.length === 0}>
          {submit.busy ? 'Saving…' : when === 'now' ? 'Publish now' : 'Schedule post'}
        </button>
        {busyUploading ? <p class="muted small">Waiting for the uploads to finish.</p> : null}
      </form>
      <ErrorNotice error={submit.error} />
    </main>
  );
}
