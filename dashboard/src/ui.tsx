/**
 * The pieces every screen uses: loading an answer, showing a failure with the API's message
 * and request id, confirming a destructive step, copying a secret shown once, times in the
 * user's zone beside UTC. Text from the API is always passed as children or attributes,
 * which Preact sets as text: nothing here turns a string into markup.
 */
import type { ComponentChildren, JSX } from 'preact';
import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';
import { SwitchboardError } from './api.ts';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** Loads `fetcher`'s answer, again whenever `deps` change or `reload` is called. */
export function useLoad<T>(fetcher: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: null,
    loading: true,
  });
  const [round, setRound] = useState(0);
  // The caller names what the fetcher depends on, in `deps`.
  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    fetcher(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ data, error: null, loading: false });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState((s) => ({ data: s.data, error, loading: false }));
      },
    );
    return () => controller.abort();
  }, [...deps, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { ...state, reload };
}

/** A failed request: the API's message, its code and the request id to quote to an operator. */
export function ErrorNotice({ error }: { error: unknown }) {
  if (error === null || error === undefined) return null;
  if (error instanceof SwitchboardError) {
    return (
      <div class="notice error" role="alert">
        <p>{error.message}</p>
        <p class="muted small">
          {`${error.status} `}
          <code>{error.code}</code>
          {error.requestId ? (
            <>
              {' · request id '}
              <code>{error.requestId}</code>
            </>
          ) : null}
        </p>
      </div>
    );
  }
  return (
    <div class="notice error" role="alert">
      <p>{error instanceof Error ? error.message : 'Something went wrong.'}</p>
    </div>
  );
}

/** One problem of a `validation_failed` (or a platform's) error: where it is and what is wrong. */
export interface Problem {
  field?: string;
  message?: string;
  [key: string]: unknown;
}

/** The problems a failed request's `details` lists, when it lists them. */
export function problemsOf(error: unknown): Problem[] {
  if (!(error instanceof SwitchboardError) || !Array.isArray(error.details)) return [];
  return error.details.filter((d): d is Problem => typeof d === 'object' && d !== null);
}

/** The API's word on one field of a failed request (`body.name`), to show at that field. */
export function problemAt(error: unknown, field: string): string | undefined {
  return problemsOf(error).find((p) => p.field === field)?.message;
}

/** Runs one action at a time, keeping its failure to show and whether it is under way. */
export function useAction<A extends unknown[], R>(
  action: (...args: A) => Promise<R>,
): { run: (...args: A) => Promise<R | undefined>; busy: boolean; error: unknown; clear: () => void } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (...args: A): Promise<R | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await action(...args);
    } catch (caught) {
      setError(caught);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error, clear: () => setError(null) };
}

/** A labelled control with its problem (from the API's `details`) said beside it. */
export function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: ComponentChildren;
  error?: string | undefined;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => JSX.Element;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children({ id, describedBy, invalid: error !== undefined })}
      {hint ? (
        <p id={hintId} class="muted small">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} class="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled text input whose value the caller keeps, with its problem beside it. */
export function TextField({
  label,
  hint,
  error,
  value,
  onValue,
  type = 'text',
  required,
  maxLength,
  placeholder,
}: {
  label: string;
  hint?: ComponentChildren;
  error?: string | undefined;
  value: string;
  onValue: (value: string) => void;
  /** `password`: a secret, hidden as typed and never filled in by the browser. */
  type?: 'text' | 'url' | 'date' | 'password' | 'email';
  required?: boolean;
  maxLength?: number;
  placeholder?: string;
}) {
  return (
    <Field label={label} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => {
        const props = {
          id,
          required,
          maxLength,
          placeholder,
          value,
          'aria-describedby': describedBy,
          'aria-invalid': invalid,
          onInput: (e: Event) => onValue((e.currentTarget as HTMLInputElement).value),
        };
        // Preact types each input type apart, so each is written out.
        if (type === 'url') return <input type="url" {...props} />;
        if (type === 'date') return <input type="date" {...props} />;
        if (type === 'email') return <input type="email" autocomplete="off" {...props} />;
        if (type === 'password') return <input type="password" autocomplete="off" {...props} />;
        return <input type="text" {...props} />;
      }}
    </Field>
  );
}

export interface Choice {
  value: string;
  label: string;
}

/**
 * A labelled select. With `none`, a first choice of that label stands for no value (''),
 * as a filter's "every …" does.
 */
export function SelectField({
  label,
  hint,
  error,
  value,
  onValue,
  choices,
  none,
  disabled,
  required,
}: {
  label: string;
  hint?: ComponentChildren;
  error?: string | undefined;
  value: string;
  onValue: (value: string) => void;
  choices: readonly Choice[];
  none?: string;
  disabled?: boolean;
  required?: boolean;
}) {
  return (
    <Field label={label} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          value={value}
          disabled={disabled}
          required={required}
          onChange={(e) => onValue(e.currentTarget.value)}
        >
          {none !== undefined ? <option value="">{none}</option> : null}
          {choices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** Copies `text`, and says so. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  };
  return (
    <span class="copy">
      <button type="button" class="secondary small" onClick={copy}>
        {label}
      </button>
      <span role="status" class="muted small">
        {copied === 'yes' ? 'Copied.' : copied === 'no' ? 'Copying was refused: select the text and copy it.' : ''}
      </span>
    </span>
  );
}

/** A secret or link shown in full, selectable, with a copy button. */
export function Revealed({ label, value, children }: { label: string; value: string; children?: ComponentChildren }) {
  const id = useId();
  return (
    <section class="revealed" aria-labelledby={id}>
      <p id={id} class="strong">
        {label}
      </p>
      <p>
        <code class="secret">{value}</code>
      </p>
      <CopyButton text={value} />
      {children}
    </section>
  );
}

/**
 * A link just made, whose address the service keeps only hashed: shown in full with a copy
 * button and what it is for, this once, until the user says it is copied.
 */
export function LinkShownOnce({
  label,
  url,
  onCopied,
  children,
}: {
  label: string;
  url: string;
  onCopied: () => void;
  children: ComponentChildren;
}) {
  return (
    <Revealed label={label} value={url}>
      {children}
      <p class="notice warn">This link will not be shown again: copy it now.</p>
      <button type="button" class="secondary small" onClick={onCopied}>
        I have copied it
      </button>
    </Revealed>
  );
}

/**
 * A step taken only once a Confirm dialog says yes: `ask(item)` opens the dialog for that
 * item, `dialog` is spread on the Confirm, and `done` hears of the step's result. Cancelling
 * forgets the item and any failure shown.
 */
export function useConfirmed<T, R>(act: (item: T) => Promise<R>, done: (item: T, result: R) => void) {
  const [item, setItem] = useState<T | null>(null);
  // Boxed, so a step that answers nothing (a 204) still counts as done.
  const action = useAction(async (it: T) => ({ result: await act(it) }));
  return {
    item,
    ask: (it: T) => setItem(() => it),
    dialog: {
      open: item !== null,
      busy: action.busy,
      error: action.error,
      onCancel: () => {
        setItem(null);
        action.clear();
      },
      onConfirm: async () => {
        if (item === null) return;
        const outcome = await action.run(item);
        if (outcome) {
          setItem(null);
          done(item, outcome.result);
        }
      },
    },
  };
}

/**
 * A modal question before a step that cannot be undone. The native dialog keeps the focus
 * inside and gives Escape for "no".
 */
export function Confirm({
  open,
  title,
  children,
  confirmLabel,
  dismissLabel = 'Cancel',
  busy,
  error,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  /** The way out, where "Cancel" would read as the action itself. */
  dismissLabel?: string;
  busy?: boolean;
  error?: unknown;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onCancel={onCancel}>
      <h2 id={titleId}>{title}</h2>
      {children}
      <ErrorNotice error={error} />
      <div class="actions">
        <button type="button" class="danger" disabled={busy} onClick={onConfirm}>
          {busy ? 'Working…' : confirmLabel}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          {dismissLabel}
        </button>
      </div>
    </dialog>
  );
}

const utc = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});
const local = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The user's time zone, as the browser names it. */
export const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A time in the user's zone, with UTC beside it. */
export function Time({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span class="muted">—</span>;
  const at = new Date(iso);
  return (
    <time dateTime={iso} title={`${utc.format(at)} UTC`}>
      {local.format(at)} <span class="muted small">({utc.format(at)} UTC)</span>
    </time>
  );
}

/** Says that something is under way, to screen readers too. */
export function Progress({ label }: { label: string }) {
  return (
    <p class="progress" role="status">
      <progress aria-label={label} /> {label}
    </p>
  );
}

/** A status as a word with a colour that is never the only sign of it. */
export function Badge({ value, tone }: { value: string; tone?: 'good' | 'bad' | 'warn' | 'neutral' }) {
  return <span class={`badge ${tone ?? 'neutral'}`}>{value}</span>;
}

/** The list screens' empty state. */
export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty muted">{children}</p>;
}

/**
 * A list screen's table of what it loaded: the failure, progress until the first answer, then
 * the empty state or the table (a caption for screen readers, a header per column, `rows` of
 * the items).
 */
export function LoadedTable<T>({
  loaded,
  loadingLabel,
  empty,
  caption,
  columns,
  tableClass,
  rows,
}: {
  loaded: { data: readonly T[] | undefined; error: unknown; loading: boolean };
  loadingLabel: string;
  empty: ComponentChildren;
  caption: string;
  columns: readonly string[];
  tableClass?: string;
  rows: (items: readonly T[]) => ComponentChildren;
}) {
  const { data, error, loading } = loaded;
  return (
    <>
      <ErrorNotice error={error} />
      {loading && !data ? <Progress label={loadingLabel} /> : null}
      {data ? (
        data.length === 0 ? (
          <Empty>{empty}</Empty>
        ) : (
          <table class={tableClass}>
            <caption class="visually-hidden">{caption}</caption>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>{rows(data)}</tbody>
          </table>
        )
      ) : null}
    </>
  );
}
