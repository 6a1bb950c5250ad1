/**
 * A target's publish claim. The run that finds the container finished claims its publish
 * (`processing` to `claimed`, dated in `claimed_at`) before calling the platform, so that two
 * runs of one target never both publish. A run that did not make the claim cannot tell a
 * claimer still calling from one that died, so the claim is its holder's for CLAIM_LEASE_MS
 * from when it was made or last renewed: meanwhile no other run moves or ends the target, and
 * after it the claimer is taken to have died and the container is asked again.
 *
 * The holder renews the claim at each part it records (an X thread's posts) and when its call
 * ended without an answer or with a server error (the platform may still be making the post:
 * mayHaveActed). It gives the claim back at once on any other refusal (nothing was made), so that
 * the retry asks the container as soon as the failure allows.
 */
import { and, eq, isNull, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import { now } from '../../../clock.ts';
import type { Db, Queryable } from '../../../db/connection.ts';
import type { StatementPart } from '../../../db/prepared.ts';
import { PlatformError } from '../../../platforms/index.ts';
import { type PostTarget, postTargets } from '../tables.ts';
import { loadTarget, stateOf, waitUntil } from './run.ts';

/**
 * Longer than a holder takes from its claim (or its last recorded part) to its outcome: a few
 * calls (Meta's publish and its permalink's read; a part of an X thread and its read-back), each
 * cut at the adapter's timeout (15 s by default), and the outcome's commit.
 */
export const CLAIM_LEASE_MS = 2 * 60_000;

/** When a claim is its holder's no more: its time (a claim from before it was dated: its row's last change) and the lease. */
export function claimLeaseEnd(target: Pick<PostTarget, 'claimedAt' | 'updatedAt'>): Date {
  return new Date((target.claimedAt ?? target.updatedAt).getTime() + CLAIM_LEASE_MS);
}

/** Whether the target is claimed by a run that may still be calling. */
export function claimHeld(target: PostTarget): boolean {
  return stateOf(target) === 'claimed' && claimLeaseEnd(target).getTime() > now().getTime();
}

/**
 * A claimed target, as another run found it: looked at again when its claim's lease ends (at once
 * where it has), so the target keeps a job for a holder that died. The wait dates the row anew, so
 * a claim dated by its row's last change (made before claims were dated) is dated first; a dated
 * one is left as it is, which its holder may have renewed since it was read.
 */
export async function awaitClaim(db: Queryable, target: PostTarget): Promise<void> {
  await waitUntil(db, target, claimLeaseEnd(target), target.claimedAt === null ? { claimedAt: target.updatedAt } : {});
}

/**
 * A move made by the claim's holder: only while the target is still claimed with its claim (a
 * claim is dated only while it is held: every move out of `claimed` clears its date).
 */
export function asHolder(claimedAt: Date): StatementPart {
  return {
    shape: 'claim as held',
    sql: and(eq(postTargets.step, 'publish'), eq(postTargets.claimedAt, sql.placeholder('when_claimed_at'))) as SQL,
    values: { when_claimed_at: postTargets.claimedAt.mapToDriverValue(claimedAt) },
  };
}

/** A move made by any other run: never of a claim whose lease holds. */
export function notAgainstHeldClaim(): StatementPart {
  const passed = new Date(now().getTime() - CLAIM_LEASE_MS);
  return {
    shape: 'no claim held',
    sql: or(
      isNull(postTargets.step),
      ne(postTargets.step, 'publish'),
      lte(sql`coalesce(${postTargets.claimedAt}, ${postTargets.updatedAt})`, sql.placeholder('when_lease_passed')),
    ) as SQL,
    values: { when_lease_passed: postTargets.claimedAt.mapToDriverValue(passed) },
  };
}

/** The holder's claim, renewed now (its lease counts from now); null when the row no longer carries it. */
export async function renewClaim(db: Queryable, targetId: string, held: Date, set: Partial<PostTarget> = {}) {
  const renewed = now();
  const rows = await db
    .update(postTargets)
    .set({ ...set, claimedAt: renewed })
    .where(and(eq(postTargets.id, targetId), eq(postTargets.step, 'publish'), eq(postTargets.claimedAt, held)))
    .returning({ id: postTargets.id });
  return rows.length === 0 ? null : renewed;
}

/**
 * Whether a failed publish call may still make the post: the platform did not answer (a timeout,
 * the network), answered with a server error (a gateway's timeout, or Meta's "unexpected error",
 * behind which the post may be being made), or the run failed in a way it cannot classify. Any
 * other answer ended the call on the platform's side: what it made, if anything, is there to read.
 */
export function mayHaveActed(error: unknown): boolean {
  if (!(error instanceof PlatformError)) return true;
  const { status } = error.detail;
  return status === undefined || status >= 500;
}

/**
 * A failure of a publish whose claim had passed to another run by then (its lease ended, or the
 * target was cancelled or failed meanwhile): the target is that run's to settle, and this run
 * leaves it as it is.
 */
export class ClaimLost extends Error {
  constructor(readonly error: unknown) {
    super(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/** A failure of the claim's holder, its claim kept (`claimedAt`): it may end the claimed target, while the claim is still its. */
export class HeldClaimFailure extends Error {
  constructor(
    readonly error: unknown,
    readonly claimedAt: Date,
  ) {
    super(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/**
 * After a run found the target claimed by another (its claim lost, or its failure dropped): a
 * claimed target keeps a job for its lease's end, whoever holds it.
 */
export async function watchClaim(db: Db, targetId: string): Promise<void> {
  const current = (await loadTarget(db, targetId))?.target;
  if (current !== undefined && stateOf(current) === 'claimed') await awaitClaim(db, current);
}
