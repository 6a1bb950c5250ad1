/** The API's problems with a post, shown at the fields they name, each with the account it concerns. */
import type { Account } from '../../resources.ts';
import { accountLabel } from '../../resources.ts';
import { problemsOf } from '../../ui.tsx';

/** The problems the API named for `field` (its `details`), with `body.` or without. */
export function problemsAt(error: unknown, field: string, accounts: readonly Account[]): string[] {
  return problemsOf(error)
    .filter((p) => p.field === field || p.field === `body.${field}` || p.field?.startsWith(`${field}[`))
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
