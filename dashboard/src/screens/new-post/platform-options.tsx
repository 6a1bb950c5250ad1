/**
 * The options a post takes for each chosen platform (`platforms.<platform>` of POST /v1/posts),
 * offered as a form whose fields are read from the catalogue (option-fields.ts); the
 * platform's own text is a text area with its counter. The values are sent as the fields hold
 * them; the API checks them against the same schema, and its problems are shown at the fields
 * they name.
 */
import { type ComponentChildren, Fragment } from 'preact';
import { useId, useState } from 'preact/hooks';
import { answer, api } from '../../api.ts';
import type { Platform, PlatformEntry } from '../../catalogue.ts';
import { type Account, accountLabel, type RequestBody } from '../../resources.ts';
import { ErrorNotice, Field, Progress, useLoad } from '../../ui.tsx';
import { uploadMedium } from './media.tsx';
import {
  type FormValue,
  type OptionField,
  OWN_TEXT,
  type OwnTextField,
  optionFields,
  optionsToSend,
  ownTextField,
} from './option-fields.ts';
import { TextCounter } from './post-text.tsx';
import { Problems, problemsAt } from './problems.tsx';

/** The options of a post as the API takes them. */
type PostOptions = NonNullable<RequestBody<'/v1/posts', 'post'>['platforms']>;

/** A description as text, its `code` spans (between backticks) shown as code. */
function Described({ text }: { text: string }): ComponentChildren {
  return text.split('`').map((part, i) => (
    // Odd parts stand between backticks; the parts keep their order, so the index names each.
    <Fragment key={i}>{i % 2 === 1 ? <code>{part}</code> : part}</Fragment>
  ));
}

/** The ids an element is described by, of those given. */
function describedBy(...ids: (string | false | undefined)[]): string | undefined {
  return ids.filter(Boolean).join(' ') || undefined;
}

/** What the form holds, by platform and option name; an option never touched is absent. */
type Chosen = Partial<Record<Platform, Record<string, FormValue>>>;

/** Where a value sits within a platform's options: option names and list places. */
type ValuePath = readonly (string | number)[];

/** The value at `path` within `value`, if there is one. */
function valueAt(value: FormValue | undefined, path: ValuePath): FormValue | undefined {
  let at = value;
  for (const step of path) {
    if (typeof step === 'number') at = Array.isArray(at) ? at[step] : undefined;
    else at = typeof at === 'object' && at !== null && !Array.isArray(at) ? at[step] : undefined;
  }
  return at;
}

/** `value` with `path` set to `next` (removed when undefined), the lists and groups on the way copied. */
function withValueAt(
  value: FormValue | undefined,
  path: ValuePath,
  next: FormValue | undefined,
): FormValue | undefined {
  const [step, ...rest] = path;
  if (step === undefined) return next;
  if (typeof step === 'number') {
    const list = Array.isArray(value) ? [...value] : [];
    const item = withValueAt(list[step], rest, next);
    if (item === undefined) list.splice(step, 1);
    else list[step] = item;
    return list;
  }
  const group = typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value } : {};
  const item = withValueAt(group[step], rest, next);
  if (item === undefined) delete group[step];
  else group[step] = item;
  return group;
}

/** The API's name for the field at `path` of a platform's options (`platforms.x.thread[0].text`). */
function fieldPath(platform: Platform, path: ValuePath): string {
  return path.reduce<string>(
    (at, step) => (typeof step === 'number' ? `${at}[${step}]` : `${at}.${step}`),
    `platforms.${platform}`,
  );
}

export interface PlatformOptionsState {
  chosen: Chosen;
  /** Sets (or, with undefined, removes) the value at `path` of a platform's options. */
  set: (platform: Platform, path: ValuePath, value: FormValue | undefined) => void;
  /** Changes the value at `path` from what it is when the change is made (after an upload's wait). */
  update: (
    platform: Platform,
    path: ValuePath,
    change: (value: FormValue | undefined) => FormValue | undefined,
  ) => void;
  /** The file names of media uploaded for the options, by media id. */
  mediaNames: Readonly<Record<string, string>>;
  nameMedium: (id: string, name: string) => void;
  /** The platform's own text, when one is written. */
  ownText: (platform: Platform) => string | undefined;
  /** What the post's `platforms` is for the chosen platforms, when any of their options is set. */
  bodyFor: (platforms: readonly PlatformEntry[]) => PostOptions | undefined;
}

export function usePlatformOptions(): PlatformOptionsState {
  const [chosen, setChosen] = useState<Chosen>({});
  const [mediaNames, setMediaNames] = useState<Record<string, string>>({});
  const update: PlatformOptionsState['update'] = (platform, path, change) =>
    setChosen((held) => {
      const current = withValueAt(held[platform], path, change(valueAt(held[platform], path)));
      const next = { ...held };
      if (typeof current === 'object' && !Array.isArray(current) && Object.keys(current).length > 0) {
        next[platform] = current;
      } else delete next[platform];
      return next;
    });
  return {
    chosen,
    set: (platform, path, value) => update(platform, path, () => value),
    update,
    mediaNames,
    nameMedium: (id, name) => setMediaNames((held) => ({ ...held, [id]: name })),
    ownText: (platform) => {
      const text = chosen[platform]?.[OWN_TEXT];
      return typeof text === 'string' ? text : undefined;
    },
    bodyFor: (platforms) => {
      // A platform no chosen account is on keeps its options in the form, unsent (the API
      // refuses options for a platform none of the post's accounts is on).
      const sent = Object.fromEntries(
        platforms.flatMap((p) => {
          const values = chosen[p.platform];
          const options = values
            ? optionsToSend(p.publishing.options, values, p.publishing.required_options)
            : undefined;
          return options ? [[p.platform, options]] : [];
        }),
      );
      // Each value is one its field took for the option the catalogue's schema names; the API
      // checks them against the same schema.
      return Object.keys(sent).length > 0 ? (sent as PostOptions) : undefined;
    },
  };
}

/** What each field is drawn with: its value, its setter and the API's problems with it. */
interface FieldProps<F> {
  field: F;
  value: FormValue | undefined;
  set: (value: FormValue | undefined) => void;
  problems: string[];
  /**
   * Whether the browser asks for the field before sending: a required option of the platform,
   * not one required only within a group the user may leave empty (a poll's duration).
   */
  enforced?: boolean;
}

/** A text area counted as the platform counts its text: its own text, and a thread's posts. */
function CountedText({
  field,
  value,
  set,
  problems,
  platform,
  optional,
}: FieldProps<Pick<OwnTextField, 'label' | 'hint' | 'maxLength'>> & { platform: PlatformEntry; optional: boolean }) {
  const text = typeof value === 'string' ? value : undefined;
  return (
    <Field
      label={optional ? `${field.label} (optional)` : field.label}
      hint={field.hint ? <Described text={field.hint} /> : null}
    >
      {({ id, describedBy: hint }) => (
        <>
          <textarea
            id={id}
            class="short"
            maxLength={field.maxLength}
            aria-describedby={describedBy(hint, text !== undefined && `${id}-count`, problems.length > 0 && `${id}-p`)}
            aria-invalid={problems.length > 0}
            value={text ?? ''}
            onInput={(e) => set(e.currentTarget.value || undefined)}
          />
          {text !== undefined ? (
            <ul id={`${id}-count`} class="plain counters small" aria-live="polite">
              <TextCounter platform={platform} text={text} />
            </ul>
          ) : null}
          <Problems id={`${id}-p`} messages={problems} />
        </>
      )}
    </Field>
  );
}

/**
 * A yes/no the platform requires, declared either way: two choices, neither chosen at first.
 * One it does not require is a list of three, "Not set" leaving it to the platform's default
 * (which may be yes: YouTube notifies subscribers unless told not to).
 */
function YesNoOption({ field, value, set, problems }: FieldProps<OptionField>) {
  const name = useId();
  if (!field.required) {
    const held = value === true ? 'yes' : value === false ? 'no' : '';
    return (
      <Field label={labelled(field)} hint={field.hint ? <Described text={field.hint} /> : null}>
        {({ id, describedBy: hint }) => (
          <>
            <select
              id={id}
              aria-describedby={describedBy(hint, problems.length > 0 && `${id}-p`)}
              aria-invalid={problems.length > 0}
              value={held}
              onChange={(e) => {
                const chosen = e.currentTarget.value;
                set(chosen === 'yes' ? true : chosen === 'no' ? false : undefined);
              }}
            >
              <option value="">Not set</option>
              <option value="yes">Yes</option>
              <option value="no">No</option>
            </select>
            <Problems id={`${id}-p`} messages={problems} />
          </>
        )}
      </Field>
    );
  }
  return (
    <OptionGroup field={field} problems={problems}>
      {[true, false].map((choice) => (
        <label key={String(choice)} class="check">
          <input
            type="radio"
            name={name}
            required
            aria-invalid={problems.length > 0}
            checked={value === choice}
            onChange={() => set(choice)}
          />
          {choice ? 'Yes' : 'No'}
        </label>
      ))}
    </OptionGroup>
  );
}

/** A field's label, saying "(optional)" where the option may be left out. */
function labelled(field: OptionField): string {
  return field.required ? field.label : `${field.label} (optional)`;
}

function TextOption({
  field,
  value,
  set,
  problems,
  enforced,
}: FieldProps<Extract<OptionField, { kind: 'text' } | { kind: 'number' }>>) {
  return (
    <Field label={labelled(field)} hint={field.hint ? <Described text={field.hint} /> : null}>
      {({ id, describedBy: hint }) => (
        <>
          <input
            id={id}
            required={enforced}
            {...(field.kind === 'number'
              ? { type: 'number', step: 1, min: field.minimum, max: field.maximum, inputMode: 'numeric' as const }
              : { maxLength: field.maxLength })}
            aria-describedby={describedBy(hint, problems.length > 0 && `${id}-p`)}
            aria-invalid={problems.length > 0}
            value={typeof value === 'string' ? value : ''}
            onInput={(e) => set(e.currentTarget.value || undefined)}
          />
          <Problems id={`${id}-p`} messages={problems} />
        </>
      )}
    </Field>
  );
}

function SelectOption({ field, value, set, problems, enforced }: FieldProps<Extract<OptionField, { kind: 'select' }>>) {
  return (
    <Field label={field.label} hint={field.hint ? <Described text={field.hint} /> : null}>
      {({ id, describedBy: hint }) => (
        <>
          <select
            id={id}
            required={enforced}
            aria-describedby={describedBy(hint, problems.length > 0 && `${id}-p`)}
            aria-invalid={problems.length > 0}
            value={typeof value === 'string' ? value : ''}
            onChange={(e) => set(e.currentTarget.value || undefined)}
          >
            {/* Left empty, the option is not sent; a required one has no default, so it asks for a choice. */}
            <option value="">{field.required ? 'Choose…' : 'Not set'}</option>
            {field.choices.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
          <Problems id={`${id}-p`} messages={problems} />
        </>
      )}
    </Field>
  );
}

/**
 * An option whose values are each account's own on the platform (`publishing.listed_options`: a
 * Pinterest account's boards), read for each chosen account on it and offered grouped by account.
 */
function ListedOption({
  field,
  value,
  set,
  problems,
  enforced,
  listedFor,
}: FieldProps<OptionField> & { listedFor: readonly Account[] }) {
  const listed = useLoad(
    (signal) =>
      Promise.all(
        listedFor.map(async (account) => {
          const path = { id: account.id, option: field.name };
          const page = await answer(api.GET('/v1/accounts/{id}/options/{option}', { params: { path }, signal }));
          return { account, values: page.data };
        }),
      ),
    [listedFor.map((a) => a.id).join(','), field.name],
  );
  return (
    <Field label={field.label} hint={field.hint ? <Described text={field.hint} /> : null}>
      {({ id, describedBy: hint }) => (
        <>
          {listed.loading && !listed.data ? <Progress label={`Loading ${field.label.toLowerCase()}s…`} /> : null}
          {listed.error ? <ErrorNotice error={listed.error} /> : null}
          <select
            id={id}
            required={enforced}
            aria-describedby={describedBy(hint, problems.length > 0 && `${id}-p`)}
            aria-invalid={problems.length > 0}
            value={typeof value === 'string' ? value : ''}
            onChange={(e) => set(e.currentTarget.value || undefined)}
          >
            <option value="">{field.required ? 'Choose…' : 'Not set'}</option>
            {(listed.data ?? []).map(({ account, values }) => (
              <optgroup key={account.id} label={accountLabel(account)}>
                {values.map((v) => (
                  <option key={v.value} value={v.value}>
                    {v.label}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
          <Problems id={`${id}-p`} messages={problems} />
        </>
      )}
    </Field>
  );
}

/** An option made of parts: a fieldset named by the option, its description, its own problems, its parts. */
function OptionGroup({
  field,
  problems,
  children,
}: {
  field: OptionField;
  problems: string[];
  children: ComponentChildren;
}) {
  const id = useId();
  return (
    <fieldset
      class="option-group"
      aria-describedby={describedBy(field.hint && `${id}-hint`, problems.length > 0 && `${id}-p`)}
    >
      <legend>{labelled(field)}</legend>
      {field.hint ? (
        <p id={`${id}-hint`} class="muted small">
          <Described text={field.hint} />
        </p>
      ) : null}
      <Problems id={`${id}-p`} messages={problems} />
      {children}
    </fieldset>
  );
}

/** A list of strings, an input each, as many as the list takes (a poll's choices, tags). */
function ListOption({ field, value, set, problems }: FieldProps<Extract<OptionField, { kind: 'list' }>>) {
  const held = Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : '')) : [];
  // The inputs the list must have are shown empty, so a list with a least count can be filled in.
  const items =
    held.length >= field.minItems ? held : [...held, ...Array<string>(field.minItems - held.length).fill('')];
  const setItem = (index: number, text: string) => {
    const next = [...items];
    next[index] = text;
    set(next.some((t) => t !== '') ? next : undefined);
  };
  const canAdd = field.maxItems === undefined || items.length < field.maxItems;
  return (
    <OptionGroup field={field} problems={problems}>
      <ol class="plain option-list">
        {items.map((item, index) => (
          // The inputs are places in the list: the index is the place.
          <li key={index}>
            <input
              aria-label={`${field.label} ${index + 1}`}
              maxLength={field.itemMaxLength}
              value={item}
              onInput={(e) => setItem(index, e.currentTarget.value)}
            />
            {index >= field.minItems ? (
              <button
                type="button"
                class="secondary"
                aria-label={`Remove ${field.label.toLowerCase()} ${index + 1}`}
                onClick={() => {
                  const next = items.filter((_, i) => i !== index);
                  set(next.some((t) => t !== '') ? next : undefined);
                }}
              >
                Remove
              </button>
            ) : null}
          </li>
        ))}
      </ol>
      {canAdd ? (
        <button type="button" class="secondary" onClick={() => set([...items, ''])}>
          Add to {field.label.toLowerCase()}
        </button>
      ) : null}
    </OptionGroup>
  );
}

/** What draws the fields within an option: a group's, or each of a repeated group's. */
interface NestedProps {
  platform: PlatformEntry;
  path: ValuePath;
  options: PlatformOptionsState;
  error: unknown;
  accounts: readonly Account[];
  /** The post's chosen accounts on the platform: those whose listed options' values are offered. */
  listedFor: readonly Account[];
  /** The profile media are uploaded to (the post's). */
  profileId: string;
}

/**
 * A list of the media library's ids (an X thread post's own media): files chosen are uploaded
 * to the post's profile at once, each then listed by its name with **Remove**.
 */
function MediaOption({
  field,
  value,
  problems,
  ...nested
}: NestedProps & { field: Extract<OptionField, { kind: 'media' }>; value: FormValue | undefined; problems: string[] }) {
  const { platform, path, options, profileId } = nested;
  const [uploading, setUploading] = useState(0);
  const [failure, setFailure] = useState<unknown>(null);
  const ids = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  const label = field.label.toLowerCase();
  const add = async (files: File[]) => {
    setFailure(null);
    setUploading((n) => n + files.length);
    for (const file of files) {
      try {
        const media = await uploadMedium(profileId, file);
        options.nameMedium(media.id, file.name);
        options.update(platform.platform, path, (held) => [...(Array.isArray(held) ? held : []), media.id]);
      } catch (error) {
        setFailure(error);
      } finally {
        setUploading((n) => n - 1);
      }
    }
  };
  const canAdd = field.maxItems === undefined || ids.length < field.maxItems;
  return (
    <OptionGroup field={field} problems={problems}>
      <ul class="plain option-list">
        {ids.map((id, index) => (
          // The media are places in the list (one may be there twice), as the API's problems name them.
          <li key={index}>
            <span class="small">{options.mediaNames[id] ?? id}</span>
            <button
              type="button"
              class="secondary small"
              onClick={() => {
                const next = ids.filter((_, i) => i !== index);
                options.set(platform.platform, path, next.length > 0 ? next : undefined);
              }}
            >
              Remove<span class="visually-hidden"> {options.mediaNames[id] ?? id}</span>
            </button>
          </li>
        ))}
      </ul>
      {uploading > 0 ? <Progress label={`Uploading ${label}…`} /> : null}
      {failure !== null ? <ErrorNotice error={failure} /> : null}
      {canAdd ? (
        <label class="small">
          Add {label}
          <input
            type="file"
            multiple
            accept="image/*,video/*"
            disabled={profileId === ''}
            onChange={(e) => {
              const files = Array.from(e.currentTarget.files ?? []);
              e.currentTarget.value = '';
              if (files.length > 0) void add(files);
            }}
          />
        </label>
      ) : null}
    </OptionGroup>
  );
}

function GroupOption({
  field,
  problems,
  ...nested
}: NestedProps & { field: Extract<OptionField, { kind: 'group' }>; problems: string[] }) {
  return (
    <OptionGroup field={field} problems={problems}>
      <OptionInputs fields={field.fields} {...nested} />
    </OptionGroup>
  );
}

function RepeatOption({
  field,
  value,
  problems,
  ...nested
}: NestedProps & {
  field: Extract<OptionField, { kind: 'repeat' }>;
  value: FormValue | undefined;
  problems: string[];
}) {
  const items = Array.isArray(value) ? value : [];
  const { platform, path, options } = nested;
  const setAll = (next: FormValue[]) => options.set(platform.platform, path, next.length > 0 ? next : undefined);
  const canAdd = field.maxItems === undefined || items.length < field.maxItems;
  return (
    <OptionGroup field={field} problems={problems}>
      {items.map((_, index) => (
        // The groups are places in the list: the index is the place, as the API's problems name it.
        <fieldset key={index} class="option-group">
          <legend>
            {field.itemLabel} {index + 1}
          </legend>
          <OptionInputs fields={field.fields} {...nested} path={[...path, index]} />
          <button type="button" class="secondary" onClick={() => setAll(items.filter((__, i) => i !== index))}>
            Remove {field.itemLabel.toLowerCase()} {index + 1}
          </button>
        </fieldset>
      ))}
      {canAdd ? (
        <button type="button" class="secondary" onClick={() => setAll([...items, {}])}>
          Add {field.itemLabel.toLowerCase()}
        </button>
      ) : null}
    </OptionGroup>
  );
}

/** The field of one option, at `path` within its platform's options. */
function OptionInput({ field, ...nested }: NestedProps & { field: OptionField }) {
  const { platform, path, options, error, accounts, listedFor } = nested;
  const name = platform.platform;
  const at = [...path, field.name];
  const props: FieldProps<OptionField> = {
    field,
    value: valueAt(options.chosen[name], at),
    set: (value) => options.set(name, at, value),
    // A group's or a repeated group's own problems; its fields show theirs.
    problems: problemsAt(error, fieldPath(name, at), accounts, field.kind !== 'group' && field.kind !== 'repeat'),
    enforced: field.required && path.length === 0,
  };
  if (path.length === 0 && platform.publishing.listed_options.includes(field.name)) {
    return <ListedOption {...props} listedFor={listedFor} />;
  }
  switch (field.kind) {
    case 'yesno':
      return <YesNoOption {...props} />;
    case 'text':
      // A thread's posts are counted as the platform counts the post's text.
      return field.name === OWN_TEXT ? (
        <CountedText {...props} field={field} platform={platform} optional={!field.required} />
      ) : (
        <TextOption {...props} field={field} />
      );
    case 'number':
      return <TextOption {...props} field={field} />;
    case 'select':
      return <SelectOption {...props} field={field} />;
    case 'list':
      return <ListOption {...props} field={field} />;
    case 'media':
      return <MediaOption {...nested} path={at} field={field} value={props.value} problems={props.problems} />;
    case 'group':
      return <GroupOption {...nested} path={at} field={field} problems={props.problems} />;
    case 'repeat':
      return <RepeatOption {...nested} path={at} field={field} value={props.value} problems={props.problems} />;
    case 'other':
      return (
        <p class="muted small">
          {field.label}: set through the API (<code>{fieldPath(name, at)}</code>).
        </p>
      );
  }
}

/** The fields of a platform's options, or of a group within them, at `path`. */
function OptionInputs({ fields, ...nested }: NestedProps & { fields: OptionField[] }) {
  return (
    <>
      {fields.map((field) => (
        <OptionInput key={field.name} field={field} {...nested} />
      ))}
    </>
  );
}

export function PlatformOptions({
  platform,
  options,
  error,
  accounts,
  chosen,
  profileId,
}: {
  platform: PlatformEntry;
  options: PlatformOptionsState;
  error: unknown;
  accounts: readonly Account[];
  /** The ids of the post's chosen accounts. */
  chosen: readonly string[];
  profileId: string;
}) {
  const name = platform.platform;
  const listedFor = accounts.filter((a) => a.platform === name && chosen.includes(a.id));
  const ownText = ownTextField(platform.publishing.options);
  return (
    <fieldset>
      <legend>{platform.label} options</legend>
      {ownText ? (
        <CountedText
          field={ownText}
          value={options.chosen[name]?.[OWN_TEXT]}
          set={(value) => options.set(name, [OWN_TEXT], value)}
          problems={problemsAt(error, fieldPath(name, [OWN_TEXT]), accounts)}
          platform={platform}
          optional
        />
      ) : null}
      <OptionInputs
        fields={optionFields(platform.publishing.options, platform.publishing.required_options)}
        platform={platform}
        path={[]}
        options={options}
        error={error}
        accounts={accounts}
        listedFor={listedFor}
        profileId={profileId}
      />
    </fieldset>
  );
}
