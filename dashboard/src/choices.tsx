/** What the screens offer to choose from: the session's profiles and accounts, as choices. */
import { all } from './api.ts';
import { type Account, accountLabel, type Profile } from './resources.ts';
import { useSession } from './session.ts';
import { type Choice, type Loaded, SelectField, useLoad } from './ui.tsx';

/** The profiles the session sees, default first; none for a profile key's session, which may not list them. */
export function useProfiles(): Loaded<Profile[]> {
  const { readsProfiles } = useSession();
  return useLoad(() => (readsProfiles ? all('/v1/profiles', {}) : Promise.resolve([])), [readsProfiles]);
}

/** The accounts of `profile` (an id), or of every profile the session sees when it is ''. */
export function useAccounts(profile: string): Loaded<Account[]> {
  return useLoad(() => all('/v1/accounts', { header: { 'service-profile': profile || undefined } }), [profile]);
}

export function profileChoices(profiles: readonly Profile[] | undefined): Choice[] {
  return (profiles ?? []).map((p) => ({ value: p.id, label: p.name }));
}

export function accountChoices(accounts: readonly Account[] | undefined): Choice[] {
  return (accounts ?? []).map((a) => ({ value: a.id, label: accountLabel(a) }));
}

/**
 * The profile and account filters of a list whose filters live in the page's address: a
 * new profile starts the account afresh. A profile key's session has one profile, so no
 * profile filter.
 */
export function ProfileAccountFilters({
  profiles,
  accounts,
  profile,
  account,
  set,
}: {
  profiles: readonly Profile[] | undefined;
  accounts: readonly Account[] | undefined;
  profile: string;
  account: string;
  set: (changes: Record<string, string | undefined>) => void;
}) {
  const { isOwner } = useSession();
  return (
    <>
      {isOwner ? (
        <SelectField
          label="Profile"
          none="Every profile"
          value={profile}
          choices={profileChoices(profiles)}
          onValue={(value) => set({ profile: value || undefined, account: undefined })}
        />
      ) : null}
      <SelectField
        label="Account"
        none="Every account"
        value={account}
        choices={accountChoices(accounts)}
        onValue={(value) => set({ account: value || undefined })}
      />
    </>
  );
}
