/** The API's problems with a post, shown at the fields they name, each with the account it concerns. */
import type { Account } from '../../resources.ts';
import { accountLabel } from '../../resources.ts';
import { problemsOf } from '../../ui.tsx';

/**
 * Where a problem is, as this page names fields: schema problems name a list's place as a
 * segment (`body.platforms.x.thread.1.text`), a post's rules in brackets (`platforms.x.thread[1].text`).
 */
function placeOf(field: string | undefined): string | undefined {
  return field?.replace(/^body\./, '').replace(/\.(\d+)(?=\.|$)/g, '[$1]');
}

/** The problems the API named for `field` (its `details`), or for its items unless `withItems` is false. */
export function problemsAt(error: unknown, field: string, accounts: readonly Account[], withItems = true): string[] {
  return problemsOf(error)
    .filter((p) => {
      const place = placeOf(p.field);
      return place === field || (withItems && place?.startsWith(`${field}[`));
    })
    .map((p) => {
      const account = typeof p.account_id === 'string' ? accounts.find((a) => a.id === p.account_id) : undefined;
      return `${account ? `${accountLabel(account)}: ` : ''}${p.message ?? ''}`;
    });
}

export function Problems({ id, messages }: { id: string; messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <ul id={id} class="field-error plain">
      {messages.map((m) => (
        <li key={m}>{m}</li>
      ))}
    </ul>
  );
}
