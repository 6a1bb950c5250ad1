/**
 * The options a post takes for each chosen platform (`platforms.<platform>` of POST /v1/posts),
 * offered as a form. The fields are declared per platform, each typed by the generated request
 * body: an option the API does not take, a choice it does not accept, or a field of the wrong
 * kind for its option is a compile error.
 */
import { useState } from 'preact/hooks';
import { platformLabel } from '../../catalogue.ts';
import type { Platform } from '../../platforms.ts';
import type { Account, RequestBody } from '../../resources.ts';
import { Field } from '../../ui.tsx';
import { Problems, problemsAt } from './problems.tsx';

/** The options of a post as the API takes them. */
type PostOptions = NonNullable<RequestBody<'/v1/posts', 'post'>['platforms']>;
type OptionsOf<P extends Platform> = NonNullable<PostOptions[P]>;
type ValueOf<P extends Platform, K extends keyof OptionsOf<P>> = NonNullable<OptionsOf<P>[K]>;

/** A field for one option: a box for a yes/no, a list for a choice among values, else a text. */
type OptionField<P extends Platform> = {
  [K in keyof OptionsOf<P> & string]: ValueOf<P, K> extends boolean
    ? { kind: 'check'; name: K; label: string }
    : string extends ValueOf<P, K>
      ? { kind: 'text'; name: K; label: string }
      : { kind: 'select'; name: K; label: string; choices: ValueOf<P, K>[]; hint?: string };
}[keyof OptionsOf<P> & string];

/** A field as the form draws it, whatever its platform. */
type AnyField =
  | { kind: 'check'; name: string; label: string }
  | { kind: 'text'; name: string; label: string }
  | { kind: 'select'; name: string; label: string; choices: readonly string[]; hint?: string };

/** Each platform's fields, in the order shown. */
const FIELDS: { [P in Platform]: OptionField<P>[] } = {
  instagram: [
    { kind: 'select', name: 'type', label: 'Instagram post type', choices: ['feed', 'reel', 'story'] },
    { kind: 'text', name: 'first_comment', label: 'First comment (optional)' },
  ],
  threads: [
    {
      kind: 'select',
      name: 'reply_control',
      label: 'Who may reply',
      choices: ['everyone', 'accounts_you_follow', 'mentioned_only', 'parent_post_author_only', 'followers_only'],
    },
    { kind: 'text', name: 'topic_tag', label: 'Topic tag (optional)' },
  ],
  tiktok: [
    {
      kind: 'select',
      name: 'privacy_level',
      label: 'TikTok privacy level',
      choices: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
      hint: 'Required: who may watch, among the options TikTok offers the account.',
    },
    { kind: 'check', name: 'disable_comment', label: 'Turn off comments' },
    { kind: 'check', name: 'disable_duet', label: 'Turn off duets' },
    { kind: 'check', name: 'disable_stitch', label: 'Turn off stitches' },
    { kind: 'check', name: 'brand_content_toggle', label: 'Branded content (paid partnership)' },
    { kind: 'check', name: 'brand_organic_toggle', label: 'Your brand (promotional content)' },
  ],
  facebook: [{ kind: 'text', name: 'link', label: 'Link to share (optional)' }],
};

/** The values set, by platform and option name; an option left at its default is absent. */
type Chosen = Partial<Record<Platform, Record<string, string | boolean>>>;

export interface PlatformOptionsState {
  chosen: Chosen;
  set: (platform: Platform, name: string, value: string | boolean | undefined) => void;
  /** What the post's `platforms` is, when any option is set. */
  body: PostOptions | undefined;
}

export function usePlatformOptions(): PlatformOptionsState {
  const [chosen, setChosen] = useState<Chosen>({});
  return {
    chosen,
    set: (platform, name, value) => {
      const current = { ...(chosen[platform] ?? {}) };
      if (value === undefined) delete current[name];
      else current[name] = value;
      const next = { ...chosen, [platform]: current };
      if (Object.keys(current).length === 0) delete next[platform];
      setChosen(next);
    },
    // Each value is one a field above offers for the option it names.
    body: Object.keys(chosen).length > 0 ? (chosen as PostOptions) : undefined,
  };
}

export function PlatformOptions({
  platform,
  options,
  error,
  accounts,
}: {
  platform: Platform;
  options: PlatformOptionsState;
  error: unknown;
  accounts: readonly Account[];
}) {
  const value = (name: string) => options.chosen[platform]?.[name];
  const at = (name: string) => problemsAt(error, `platforms.${platform}.${name}`, accounts);
  const fields: readonly AnyField[] = FIELDS[platform];
  return (
    <fieldset>
      <legend>{platformLabel(platform)} options</legend>
      {fields.map((field) => {
        const { name, label } = field;
        if (field.kind === 'check') {
          return (
            <label key={name} class="check">
              <input
                type="checkbox"
                checked={value(name) === true}
                onChange={(e) => options.set(platform, name, e.currentTarget.checked ? true : undefined)}
              />
              {label}
            </label>
          );
        }
        if (field.kind === 'text') {
          return (
            <Field key={name} label={label}>
              {({ id }) => (
                <>
                  <input
                    id={id}
                    aria-invalid={at(name).length > 0}
                    value={String(value(name) ?? '')}
                    onInput={(e) => options.set(platform, name, e.currentTarget.value || undefined)}
                  />
                  <Problems id={`${id}-p`} messages={at(name)} />
                </>
              )}
            </Field>
          );
        }
        return (
          <Field key={name} label={label} hint={field.hint}>
            {({ id, describedBy }) => (
              <>
                <select
                  id={id}
                  aria-describedby={
                    [describedBy, at(name).length ? `${id}-p` : null].filter(Boolean).join(' ') || undefined
                  }
                  aria-invalid={at(name).length > 0}
                  value={String(value(name) ?? '')}
                  onChange={(e) => options.set(platform, name, e.currentTarget.value || undefined)}
                >
                  <option value="">{field.hint ? 'Choose…' : 'Default'}</option>
                  {field.choices.map((c) => (
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
      })}
    </fieldset>
  );
}
