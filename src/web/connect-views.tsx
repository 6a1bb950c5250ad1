/**
 * What the hosted connect pages show: the link's page (one button per platform, or the one
 * account a reconnect link reconnects), the page of a login of the wrong account, and the
 * choice of pages. connect-pages.ts sends them; the names in them (the brand, an account's,
 * a page's) are written by others and shown as text.
 */
import type { AccountName } from '../modules/connect/index.ts';
import { type Platform, platformInfo } from '../platforms/index.ts';
import { type Page, titledPage } from './page.tsx';

export interface LinkPageContent {
  brand: string;
  platforms: readonly Platform[];
  minutesLeft: number;
  /** A reconnect link: the account it reconnects. */
  reconnects?: AccountName | null;
}

/** How a page names an account: `@handle (Name)`, either one alone, or its id on the platform. */
function accountLabel(account: AccountName): string {
  const handle = account.username ? `@${account.username}` : null;
  if (handle && account.displayName) return `${handle} (${account.displayName})`;
  return handle ?? account.displayName ?? account.platformUserId;
}

function LinkLifetime({ minutesLeft }: { minutesLeft: number }) {
  return <p class="muted">This link works once and for {minutesLeft} more minutes at most.</p>;
}

/** The page a reconnect link opens: the account it reconnects, and one button, for its platform. */
function reconnectPage(page: LinkPageContent, account: AccountName, href: string): Page {
  const { label, grantsPages } = platformInfo(account.platform);
  const title = `Reconnect your account to ${page.brand}`;
  const how = grantsPages
    ? `Sign in to ${label} with a login that manages that page, and share it: a login that does not share it is not accepted.`
    : `Sign in to ${label} as that account and choose what to share: another account is not accepted.`;
  return titledPage(
    200,
    title,
    <>
      <p>
        This link reconnects <strong>{accountLabel(account)}</strong> on {label}.
      </p>
      <p>
        {how} Your password is never shared with {page.brand}.
      </p>
      <ul class="buttons">
        <li>
          <PlatformButton platform={account.platform} href={href} verb="Reconnect" known={account.username} />
        </li>
      </ul>
      <LinkLifetime minutesLeft={page.minutesLeft} />
    </>,
  );
}

/**
 * A platform's way in: a button, or where the platform needs to know who signs in first (a
 * Bluesky handle) a small form asking it, sent to the same address.
 */
function PlatformButton({
  platform,
  href,
  verb = 'Connect',
  known,
}: {
  platform: Platform;
  href: string;
  verb?: string;
  /** Who signs in, where known (a reconnected account's handle). */
  known?: string | null;
}) {
  const { label, signInHint } = platformInfo(platform);
  if (signInHint === undefined) {
    return (
      <a class="button" href={href}>
        {verb} {label}
      </a>
    );
  }
  const id = `login-hint-${platform}`;
  return (
    <form method="get" action={href}>
      <label for={id}>{signInHint.label}</label>
      <input
        id={id}
        name="login_hint"
        type="text"
        required
        placeholder={signInHint.placeholder}
        value={known ?? undefined}
        autocomplete="username"
      />
      <small>{signInHint.description}</small>
      <button type="submit" class="button">
        {verb} {label}
      </button>
    </form>
  );
}

/** The page a connect link opens: one button per platform offered, each leading to `hrefOf(platform)`. */
export function connectLinkPage(page: LinkPageContent, hrefOf: (platform: Platform) => string): Page {
  if (page.reconnects) return reconnectPage(page, page.reconnects, hrefOf(page.reconnects.platform));
  const title = `Connect your account to ${page.brand}`;
  return titledPage(
    200,
    title,
    <>
      <p>
        Choose where your account is. You sign in there and choose what to share; your password is never shared with{' '}
        {page.brand}.
      </p>
      <ul class="buttons">
        {page.platforms.map((p) => (
          <li>
            <PlatformButton platform={p} href={hrefOf(p)} />
          </li>
        ))}
      </ul>
      <LinkLifetime minutesLeft={page.minutesLeft} />
    </>,
  );
}

export interface WrongAccount {
  brand: string;
  /** The account the link reconnects. */
  expected: AccountName;
  /** Who the client signed in as, or null for a login that did not share the link's page (Facebook). */
  signedInAs: AccountName | null;
  /** Back to the owner's app, with `error=account_mismatch`. */
  redirectUrl: string;
}

/**
 * A reconnect link's login was of another account: nothing changed, and the link still works.
 * The client tries again (`retryUrl`, the link's page), or goes back to the owner's app with
 * `error=account_mismatch`.
 */
export function wrongAccountPage(end: WrongAccount, retryUrl: string): Page {
  const label = platformInfo(end.expected.platform).label;
  const expected = <strong>{accountLabel(end.expected)}</strong>;
  const title = 'This is not the account to reconnect';
  return titledPage(
    409,
    title,
    <>
      {end.signedInAs ? (
        <>
          <p>
            You signed in to {label} as <strong>{accountLabel(end.signedInAs)}</strong>, but this link reconnects{' '}
            {expected}. Nothing was changed.
          </p>
          <p>
            To reconnect it, try again and sign in as that account. If {label} signs you in by itself, sign out there
            first.
          </p>
        </>
      ) : (
        <>
          <p>
            Your {label} login did not share {expected}, which this link reconnects. Nothing was changed.
          </p>
          <p>To reconnect it, try again and share that page when {label} asks which ones to share.</p>
        </>
      )}
      <ul class="buttons">
        <li>
          <a class="button" href={retryUrl}>
            Try again
          </a>
        </li>
        <li>
          <a class="button secondary" href={end.redirectUrl}>
            Back to {end.brand}
          </a>
        </li>
      </ul>
    </>,
  );
}

export interface PageChoice {
  brand: string;
  /** The pages the login shared, each offered ticked. */
  pages: readonly { id: string; name: string }[];
  /** Where the form posts. */
  action: string;
  /** The link's redirect URL: a decision's answer leads there. */
  redirectUrl: string;
  /** Why the choice was refused. */
  error?: string;
}

/** A login that grants several pages (Facebook): the client ticks the ones to connect. */
export function choosePagesPage(choice: PageChoice): Page {
  return {
    status: choice.error ? 422 : 200,
    title: 'Choose your pages',
    formTargets: [new URL(choice.redirectUrl).origin],
    body: (
      <main>
        <h1>Choose the pages to connect to {choice.brand}</h1>
        {choice.error && (
          <p class="error" role="alert">
            {choice.error}
          </p>
        )}
        <form method="post" action={choice.action}>
          <fieldset>
            <legend>Your pages</legend>
            {choice.pages.map((page) => (
              <label>
                <input type="checkbox" name="pages" value={page.id} checked /> {page.name}
              </label>
            ))}
          </fieldset>
          <button type="submit" name="decision" value="connect">
            Connect selected pages
          </button>
          <p></p>
          <button type="submit" name="decision" value="cancel" class="secondary">
            Cancel
          </button>
        </form>
      </main>
    ),
  };
}
