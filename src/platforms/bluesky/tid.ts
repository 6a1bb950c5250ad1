/**
 * A record key chosen before the record is written ("Record Key": the TID format), made by
 * @atproto/common-web's TID from the service's clock, so tests that move the clock move the key.
 * Knowing the key before the call is what lets a lost answer be settled by reading the record back.
 */
import { randomInt } from 'node:crypto';
import { TID } from '@atproto/common-web';

/** A TID of `now`: the clock reads milliseconds, so the microseconds and the clock id are random. */
export function newTid(now: Date): string {
  // Two keys chosen in the same millisecond (two workers, two tries) differ but for one chance in a million.
  return TID.fromTime(now.getTime() * 1000 + randomInt(0, 1000), randomInt(0, 1024)).toString();
}
