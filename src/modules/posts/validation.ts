/**
 * Every check a post goes through before anything is stored, collected rather than stopping
 * at the first: the answer's `details` lists each problem with its own code, and the answer
 * takes the code of the gravest (the order of PROBLEM_CODES).
 */
import type { Tx } from '../../db/connection.ts';
import { ApiError } from '../../http/errors.ts';
import type { Scope } from '../../http/scope.ts';
import {
  type DraftMedium,
  missingScopes,
  PLATFORMS,
  type Platform,
  type PlatformAdapter,
  PlatformError,
  type PlatformSet,
  platformInfo,
} from '../../platforms/index.ts';
import { type Account, lockAccountsForPosting } from '../accounts/index.ts';
import { findMedia, type MediaItem } from '../media/index.ts';
import type { PlatformsJson } from './json.ts';
import { type ListedValueMemo, ListedValuesUnread } from './listed-values.ts';
import { listedOptionValues, type OptionMediumRef, optionMediaRefs, platformOptions, targetText } from './options.ts';
import type { Post, PostTarget } from './tables.ts';

/** The codes a post's problems have, gravest first, with the status each answers. */
const PROBLEM_CODES = {
  account_not_found: 404,
  media_not_found: 404,
  mixed_profiles: 400,
  media_profile_mismatch: 400,
  account_not_connected: 422,
  permission_missing: 422,
  validation_failed: 400,
} as const;
type ProblemCode = keyof typeof PROBLEM_CODES;

export interface PostProblem {
  code: ProblemCode;
  /** Where in the request: `account_ids[1]`, `media_ids[0]`, `platforms.tiktok.privacy_level`, `scheduled_at`. */
  field: string;
  message: string;
  account_id?: string;
  media_id?: string;
}

const SUMMARIES: Record<ProblemCode, string> = {
  account_not_found: 'A post names an account the key does not see.',
  media_not_found: 'A post names a medium the key does not see.',
  mixed_profiles: 'A post names accounts of two different profiles.',
  media_profile_mismatch: "A post uses media of another profile than its accounts'.",
  account_not_connected: 'A post names an account that is not connected; reconnect it through a connect link.',
  permission_missing: 'An account lacks the permission to publish; reconnect it granting that permission.',
  validation_failed: "The post breaks a platform's rules.",
};

/** Throws the gravest problem's error with every problem in `details`; returns when there is none. */
function throwProblems(problems: readonly PostProblem[]): void {
  const [first] = [...problems].sort(
    (a, b) => Object.keys(PROBLEM_CODES).indexOf(a.code) - Object.keys(PROBLEM_CODES).indexOf(b.code),
  );
  if (!first) return;
  const more = problems.length > 1 ? ` ${problems.length} problems in all; see details.` : ' See details.';
  throw new ApiError(PROBLEM_CODES[first.code], first.code, `${SUMMARIES[first.code]}${more}`, problems);
}

/** A client's clock may lag ours a little: "now" sent as a time is not refused as past. */
const PAST_TOLERANCE_MS = 60_000;

export interface PostDraftInput {
  account_ids: string[];
  text?: string | undefined;
  media_ids?: string[] | undefined;
  scheduled_at?: string | undefined;
  platforms?: PlatformsJson | undefined;
}

export interface CheckedPost {
  profileId: string;
  scheduledAt: Date;
  /** The accounts, in the order of `account_ids`, locked FOR SHARE until the transaction ends. */
  accounts: Account[];
  /** The values of listed options the post names that could not be checked (the caller logs them). */
  unchecked: UncheckedValue[];
}

/**
 * A value a post names for a listed option (Pinterest's `board_id`) that is stored without being
 * checked against its account's values, and why: the platform refused to list them (`refusal`),
 * it has more than were read and the value is not among those (`incomplete`, how many were
 * read), or the post changed while they were read (`changed`).
 */
export interface UncheckedValue {
  accountId: string;
  platform: Platform;
  option: string;
  value: string;
  why: { refusal: PlatformError } | { incomplete: number } | 'changed';
}

function adapterOf(platforms: PlatformSet, platform: Platform): PlatformAdapter | PlatformError {
  try {
    return platforms.adapter(platform);
  } catch (error) {
    if (error instanceof PlatformError) return error;
    throw error;
  }
}

/** What an account must be to publish: connected, with the platform's publishing permission. */
/**
 * A document (a PDF) going to a platform whose kinds hold no `document`: refused, naming the
 * platforms that take one (the catalogue's kinds say which).
 */
function documentProblem(platform: Platform, media: readonly MediaItem[]): PostProblem | null {
  const index = media.findIndex((m) => m.type === 'document');
  if (index === -1 || platformInfo(platform).publishing.kinds.includes('document')) return null;
  const takers = PLATFORMS.filter((p) => platformInfo(p).publishing.kinds.includes('document')).map(
    (p) => platformInfo(p).label,
  );
  return {
    code: 'validation_failed',
    field: `media_ids[${index}]`,
    message: `${platformInfo(platform).label} publishes no documents (a PDF); ${takers.length === 0 ? 'no platform does' : `only ${takers.join(', ')} does`}.`,
  };
}

function accountProblems(platforms: PlatformSet, account: Account, field: string): PostProblem[] {
  const base = { field, account_id: account.id };
  if (account.status !== 'connected') {
    return [
      {
        ...base,
        code: 'account_not_connected',
        message: `Account ${account.id} is ${account.status}; reconnect it through a connect link.`,
      },
    ];
  }
  const adapter = adapterOf(platforms, account.platform);
  if (adapter instanceof PlatformError) return [{ ...base, code: 'validation_failed', message: adapter.message }];
  const missing = missingScopes(adapter, 'publish', account.scopes, account.platformUserId);
  if (missing === null) {
    return [{ ...base, code: 'validation_failed', message: `Publishing is not possible on ${account.platform}.` }];
  }
  if (missing.length > 0) {
    return [
      {
        ...base,
        code: 'permission_missing',
        message: `Account ${account.id} lacks the permission to publish: ${missing.join(', ')}.`,
      },
    ];
  }
  return [];
}

/**
 * The values the post names for its accounts' listed options (Pinterest's `board_id`), each
 * checked against the account's own values as `listed` read them: one not among them is a problem
 * at its option, naming the account (a post's options are per platform, and two accounts there
 * have boards of their own). A list that could not be read leaves its value unchecked: the post
 * is not refused for a platform's passing failure, and its publication fails as it would have.
 * Throws ListedValuesUnread for an account whose values were not read for this post.
 */
function listedValueChecks(
  listed: ListedValueMemo,
  accounts: readonly Account[],
  options: PlatformsJson,
): { problems: PostProblem[]; unchecked: UncheckedValue[] } {
  const problems: PostProblem[] = [];
  const unchecked: UncheckedValue[] = [];
  const unread: string[] = [];
  for (const account of accounts) {
    // An account that is not connected is refused as such, and nothing is read as it.
    if (account.status !== 'connected') continue;
    const { platform } = account;
    for (const [option, value] of listedOptionValues(options, platform)) {
      const read = listed.valuesOf(account.id, option);
      const at = { accountId: account.id, platform, option, value };
      if (read === undefined) unread.push(account.id);
      else if (read === null) unchecked.push({ ...at, why: 'changed' });
      else if (!read.read) unchecked.push({ ...at, why: { refusal: read.refusal } });
      else if (read.values.has(value)) continue;
      else if (!read.complete) unchecked.push({ ...at, why: { incomplete: read.values.size } });
      else {
        const { label, publishing } = platformInfo(platform);
        const values = publishing.listedOptions?.[option]?.values ?? 'the values it takes';
        problems.push({
          code: 'validation_failed',
          field: `platforms.${platform}.${option}`,
          account_id: account.id,
          message: `${JSON.stringify(value)} is not one of ${values} on ${label}; GET /v1/accounts/${account.id}/options/${option} lists them.`,
        });
      }
    }
  }
  if (unread.length > 0) throw new ListedValuesUnread([...new Set(unread)], options);
  return { problems, unchecked };
}

function draftMedium(m: MediaItem): DraftMedium {
  return { type: m.type, durationSeconds: m.durationSeconds, sizeBytes: m.sizeBytes, contentType: m.mimeType };
}

/**
 * The media of the library a post names at `refs` (its own `media_ids`, or those its platforms'
 * options name: optionMediaRefs), each found in the caller's scope and locked FOR SHARE; each one
 * that is not found, or (the accounts being all of `profileId`) is of another profile, is a
 * problem at its place. Found: every medium in the caller's scope, by id.
 */
async function checkNamedMedia(
  tx: Tx,
  scope: Scope,
  refs: readonly OptionMediumRef[],
  profileId: string | undefined,
): Promise<{ found: Map<string, MediaItem>; problems: PostProblem[] }> {
  const ids = [...new Set(refs.map((r) => r.mediaId))];
  const byId = new Map((await findMedia(tx, scope.ownerId, ids, { lock: 'share' })).map((m) => [m.id, m]));
  const found = new Map<string, MediaItem>();
  const problems: PostProblem[] = [];
  for (const { field, mediaId } of refs) {
    const item = byId.get(mediaId);
    if (!item || (scope.profileId !== null && item.profileId !== scope.profileId)) {
      problems.push({
        code: 'media_not_found',
        field,
        media_id: mediaId,
        message: `No medium ${JSON.stringify(mediaId)}.`,
      });
      continue;
    }
    found.set(mediaId, item);
    if (profileId !== undefined && item.profileId !== profileId) {
      problems.push({
        code: 'media_profile_mismatch',
        field,
        media_id: mediaId,
        message: `Medium ${mediaId} is in profile ${item.profileId}, the accounts in ${profileId}.`,
      });
    }
  }
  return { found, problems };
}

/**
 * Every check of a new (or edited) post. Answers what storing it needs; throws the error
 * listing every problem otherwise. The accounts stay locked FOR SHARE until the caller's
 * transaction ends, so none moves or disconnects between the check and the insert.
 */
export async function checkNewPost(
  tx: Tx,
  platforms: PlatformSet,
  scope: Scope,
  input: PostDraftInput,
  at: Date,
  listed: ListedValueMemo,
): Promise<CheckedPost> {
  const problems: PostProblem[] = [];
  const found = new Map((await lockAccountsForPosting(tx, scope, input.account_ids)).map((a) => [a.id, a]));
  const accounts: Account[] = [];
  input.account_ids.forEach((id, i) => {
    const account = found.get(id);
    if (account) accounts.push(account);
    else
      problems.push({
        code: 'account_not_found',
        field: `account_ids[${i}]`,
        account_id: id,
        message: `No account ${JSON.stringify(id)}.`,
      });
  });
  const profileIds = [...new Set(accounts.map((a) => a.profileId))];
  if (profileIds.length > 1) {
    problems.push({
      code: 'mixed_profiles',
      field: 'account_ids',
      message: `The accounts are in ${profileIds.length} profiles (${profileIds.join(', ')}); a post's accounts must all be in one.`,
    });
  }
  const profileId = accounts[0]?.profileId;

  const mediaIds = input.media_ids ?? [];
  const mediaProfile = profileIds.length === 1 ? profileId : undefined;
  const own = await checkNamedMedia(
    tx,
    scope,
    mediaIds.map((id, i) => ({ field: `media_ids[${i}]`, mediaId: id })),
    mediaProfile,
  );
  problems.push(...own.problems);
  const media = mediaIds.flatMap((id) => own.found.get(id) ?? []);

  accounts.forEach((account) => {
    problems.push(...accountProblems(platforms, account, `account_ids[${input.account_ids.indexOf(account.id)}]`));
  });

  // The media the targeted platforms' options name (an X thread's later posts), checked alike.
  const options = input.platforms ?? {};
  const targeted = [...new Set(accounts.map((a) => a.platform))];
  const optionRefs = targeted.flatMap((platform) => optionMediaRefs(options, platform));
  const named = await checkNamedMedia(tx, scope, optionRefs, mediaProfile);
  problems.push(...named.problems);
  const optionMedia = Object.fromEntries([...named.found].map(([id, item]) => [id, draftMedium(item)]));
  // Each platform's rules, once per platform the post goes to, on what that platform would publish.
  if (media.length === mediaIds.length) {
    for (const platform of targeted) {
      const adapter = adapterOf(platforms, platform);
      if (adapter instanceof PlatformError) continue; // reported per account above
      const refused = documentProblem(platform, media);
      if (refused !== null) {
        // Its own rules would read a PDF as neither image nor video: this refusal says it all.
        problems.push(refused);
        continue;
      }
      const text = targetText(input.text ?? null, options, platform);
      for (const problem of adapter.publishing.checkPublish({
        text,
        media: media.map(draftMedium),
        options: platformOptions(options, platform),
        optionMedia,
      })) {
        problems.push({ code: 'validation_failed', field: problem.field, message: problem.message });
      }
    }
  }
  const values = listedValueChecks(listed, accounts, options);
  problems.push(...values.problems);
  for (const platform of Object.keys(options)) {
    if (!targeted.includes(platform as Platform) && accounts.length === input.account_ids.length) {
      problems.push({
        code: 'validation_failed',
        field: `platforms.${platform}`,
        message: `Options for ${platform}, but no account of the post is on ${platform}.`,
      });
    }
  }

  let scheduledAt = at;
  if (input.scheduled_at !== undefined) {
    scheduledAt = new Date(input.scheduled_at);
    if (scheduledAt.getTime() < at.getTime() - PAST_TOLERANCE_MS) {
      problems.push({
        code: 'validation_failed',
        field: 'scheduled_at',
        message: `${input.scheduled_at} is in the past; leave scheduled_at out to publish now.`,
      });
    }
  }
  throwProblems(problems);
  if (profileId === undefined) throw new Error('a post passed its checks without an account');
  return { profileId, scheduledAt, accounts, unchecked: values.unchecked };
}

/**
 * What retrying failed targets needs: their accounts still connected, with the permission,
 * and in the post's profile (posts stay in their profile when an account moves); the post's
 * media still there.
 */
export async function checkRetryTargets(
  tx: Tx,
  platforms: PlatformSet,
  scope: Scope,
  post: Post,
  failed: readonly PostTarget[],
): Promise<void> {
  const ids = failed.map((t) => t.accountId);
  const found = new Map((await lockAccountsForPosting(tx, scope, ids)).map((a) => [a.id, a]));
  const problems: PostProblem[] = [];
  for (const target of failed) {
    const account = found.get(target.accountId);
    const field = `targets.${target.id}`;
    if (!account || account.profileId !== post.profileId) {
      problems.push({
        code: 'account_not_found',
        field,
        account_id: target.accountId,
        message: `Account ${target.accountId} is no longer in the post's profile ${post.profileId}.`,
      });
      continue;
    }
    problems.push(...accountProblems(platforms, account, field));
  }
  const named = [
    ...post.mediaIds.map((id, i) => ({ field: `media_ids[${i}]`, mediaId: id })),
    ...[...new Set(failed.map((t) => t.platform))].flatMap((p) => optionMediaRefs(post.platformOptions, p)),
  ];
  const mediaIds = named.map((n) => n.mediaId);
  const present = new Set((await findMedia(tx, post.ownerId, mediaIds, { lock: 'share' })).map((m) => m.id));
  for (const { field, mediaId } of named) {
    if (!present.has(mediaId)) {
      problems.push({ code: 'media_not_found', field, media_id: mediaId, message: `Medium ${mediaId} was deleted.` });
    }
  }
  throwProblems(problems);
}
