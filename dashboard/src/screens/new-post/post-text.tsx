/** The post's text, with a counter for each chosen platform that counts as the platform does. */
import { platformLabel } from '../../catalogue.ts';
import { type Platform, textRule } from '../../platforms.ts';
import type { Account } from '../../resources.ts';
import { Field } from '../../ui.tsx';
import { Problems, problemsAt } from './problems.tsx';

export function PostText({
  text,
  setText,
  platforms,
  error,
  accounts,
}: {
  text: string;
  setText: (text: string) => void;
  /** The platforms of the chosen accounts. */
  platforms: readonly Platform[];
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
          <Problems id={`${id}-p`} messages={problemsAt(error, 'text', accounts)} />
        </>
      )}
    </Field>
  );
}
