import type { Account } from '../../resources.ts';
import { PATHS } from '../../session.ts';

/** Figures the account has not granted: the permission, and the way to a reconnect link. */
export function MissingPermission({ permission, account }: { permission: string; account: Account | undefined }) {
  return (
    <div class="notice warn" role="status">
      <p>
        The account has not granted <code>{permission}</code>, so its figures cannot be read.
      </p>
      <p>
        Send the client a reconnect link and ask them to allow it:{' '}
        {account ? (
          <a href={PATHS.profile(account.profile_id)}>open the profile menu, then the account’s “Reconnect link”</a>
        ) : (
          'from the profile menu'
        )}
        .
      </p>
    </div>
  );
}
