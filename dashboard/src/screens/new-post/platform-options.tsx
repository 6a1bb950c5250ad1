/**
 * The options a post takes for each chosen platform (`platforms.<platform>` of POST /v1/posts),
 * offered as a form whose fields are read from the catalogue (option-fields.ts); the
 * platform's own text is a text area with its counter. The values are sent as the fields hold
 * them; the API checks them against the same schema, and its problems are shown at the fields
 * they name.
 */
import { type ComponentChildren, Fragment } from 'preact';
import { useState } from 'preact/hooks';
import type { Platform, PlatformEntry } from '../../catalogue.ts';
import type { Account, RequestBody } from '../../resources.ts';
import { Field } from '../../ui.tsx';
import { type OptionField, OWN_TEXT, type OwnTextField, optionFields, ownTextField } from './option-fields.ts';
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

/** The values set, by platform and option name; an option left at its default is absent. */
type Chosen = Partial<Record<Platform, Record<string, string | boolean>>>;

export interface PlatformOptionsState {
  chosen: Chosen;
  set: (platform: Platform, name: string, value: string | boolean | undefined) => void;
  /** The platform's own text, when one is written. */
  ownText: (platform: Platform) => string | undefined;
  /** What the post's `platforms` is for the chosen platforms, when any of their options is set. */
  bodyFor: (platforms: readonly Platform[]) => PostOptions | undefined;
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
    ownText: (platform) => {
      const text = chosen[platform]?.[OWN_TEXT];
      return typeof text === 'string' ? text : undefined;
    },
    bodyFor: (platforms) => {
      // A platform no chosen account is on keeps its options in the form, unsent (the API
      // refuses options for a platform none of the post's accounts is on).
      const sent = Object.fromEntries(Object.entries(chosen).filter(([p]) => platforms.some((q) => q === p)));
      // Each value is one its field took for the option the catalogue's schema names; the API
      // checks them against the same schema.
      return Object.keys(sent).length > 0 ? (sent as PostOptions) : undefined;
    },
  };
}

/** What each field is drawn with: its value, its setter and the API's problems with it. */
interface FieldProps<F> {
  field: F;
  value: string | boolean | undefined;
  set: (value: string | boolean | undefined) => void;
  problems: string[];
}

function OwnText({ field, value, set, problems, platform }: FieldProps<OwnTextField> & { platform: PlatformEntry }) {
  const text = typeof value === 'string' ? value : undefined;
  return (
    <Field label={`${field.label} (optional)`} hint={field.hint ? <Described text={field.hint} /> : null}>
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

function CheckOption({ field, value, set, problems, id }: FieldProps<OptionField> & { id: string }) {
  // A line of its own, so its description reads as its own.
  return (
    <div class="check-option">
      <label class="check">
        <input
          type="checkbox"
          aria-describedby={describedBy(field.hint && `${id}-hint`, problems.length > 0 && `${id}-p`)}
          aria-invalid={problems.length > 0}
          checked={value === true}
          onChange={(e) => set(e.currentTarget.checked ? true : undefined)}
        />
        {field.label}
      </label>
      {field.hint ? (
        <p id={`${id}-hint`} class="muted small">
          <Described text={field.hint} />
        </p>
      ) : null}
      <Problems id={`${id}-p`} messages={problems} />
    </div>
  );
}

function TextOption({ field, value, set, problems }: FieldProps<Extract<OptionField, { kind: 'text' }>>) {
  return (
    <Field
      label={field.required ? field.label : `${field.label} (optional)`}
      hint={field.hint ? <Described text={field.hint} /> : null}
    >
      {({ id, describedBy: hint }) => (
        <>
          <input
            id={id}
            required={field.required}
            maxLength={field.maxLength}
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

function SelectOption({ field, value, set, problems }: FieldProps<Extract<OptionField, { kind: 'select' }>>) {
  return (
    <Field label={field.label} hint={field.hint ? <Described text={field.hint} /> : null}>
      {({ id, describedBy: hint }) => (
        <>
          <select
            id={id}
            required={field.required}
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

export function PlatformOptions({
  platform,
  options,
  error,
  accounts,
}: {
  platform: PlatformEntry;
  options: PlatformOptionsState;
  error: unknown;
  accounts: readonly Account[];
}) {
  const name = platform.platform;
  const propsOf = <F extends { name: string }>(field: F): FieldProps<F> => ({
    field,
    value: options.chosen[name]?.[field.name],
    set: (value) => options.set(name, field.name, value),
    problems: problemsAt(error, `platforms.${name}.${field.name}`, accounts),
  });
  const ownText = ownTextField(platform.publishing.options);
  return (
    <fieldset>
      <legend>{platform.label} options</legend>
      {ownText ? <OwnText {...propsOf(ownText)} platform={platform} /> : null}
      {optionFields(platform.publishing.options).map((field) => {
        if (field.kind === 'check')
          return <CheckOption key={field.name} {...propsOf(field)} id={`${name}-${field.name}`} />;
        if (field.kind === 'text') return <TextOption key={field.name} {...propsOf(field)} />;
        if (field.kind === 'select') return <SelectOption key={field.name} {...propsOf(field)} />;
        return (
          <p key={field.name} class="muted small">
            {field.label}: set through the API (<code>{`platforms.${name}.${field.name}`}</code>).
          </p>
        );
      })}
    </fieldset>
  );
}
