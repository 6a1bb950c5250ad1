/**
 * A record key chosen before the record is written ("Record Key": the TID format): 64 bits, the
 * top one 0, then the microseconds since the Unix epoch (53 bits) and a clock id (10 bits), as 13
 * characters of base32-sortable. Knowing the key before the call is what lets a lost answer be
 * settled by reading the record back.
 */
import { randomInt } from 'node:crypto';

const ALPHABET = '234567abcdefghijklmnopqrstuvwxyz';

export function newTid(now: Date): string {
  const micros = BigInt(now.getTime()) * 1000n + BigInt(randomInt(0, 1000));
  let value = (micros << 10n) | BigInt(randomInt(0, 1024));
  let out = '';
  for (let i = 0; i < 13; i++) {
    out = (ALPHABET[Number(value & 31n)] as string) + out;
    value >>= 5n;
  }
  return out;
}

export const TID = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;
