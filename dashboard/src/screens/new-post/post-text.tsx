/**
 * The post's text, with a counter for each chosen platform it goes to, counting as the
 * catalogue says the platform counts, up to the platform's limit.
 */

import { textLength } from '../../../../src/client/index.ts';
import type { PlatformEntry } from '../../catalogue.ts';
import type { Account } from '../../resources.ts';
import { Field } from '../../ui.tsx';
import { Problems, problemsAt } from './problems.tsx';

/** How long `text` is on `platform`, of how much; said in words where this page cannot count as the platform does. */
export function TextCounter({ platform, text }: { platform: PlatformEntry; text: string }) {
  const { label } = platform;
  const { max_length: max, counting, counting_description: unit } = platform.publishing.text;
  const { length, known } = textLength(text, counting);
  return (
    <li class={length > max ? 'counter over' : 'counter'}>
      {label}: {length} / {max}
      {known ? (
        <span class="visually-hidden"> ({unit})</span>
      ) : (
        <span class="muted"> (counted here in characters; the platform counts {unit}, and its count decides)</span>
      )}
      {length > max ? ' — too long' : ''}
    </li>
  );
}

export function PostText({
  text,
  setText,
  platforms,
  error,
  accounts,
}: {
  text: string;
  setText: (text: string) => void;
  /** The platforms of the chosen accounts that take this text (not one of their own). */
  platforms: readonly PlatformEntry[];
  error: unknown;
  accounts: readonly Account[];
}) {
  return (
    <Field label="Text">
      {({ id }) => (
        <>
          <textarea
            id={id}
            aria-describedby={`${id}-counts`}
            aria-invalid={problemsAt(error, 'text', accounts).length > 0}
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
          />
          <ul id={`${id}-counts`} class="plain counters small" aria-live="polite">
            {platforms.map((p) => (
              <TextCounter key={p.platform} platform={p} text={text} />
            ))}
          </ul>
          <Problems id={`${id}-p`} messages={problemsAt(error, 'text', accounts)} />
        </>
      )}
    </Field>
  );
}
