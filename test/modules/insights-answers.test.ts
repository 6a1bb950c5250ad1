import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type AnswerKey, answerCache, type ChangeSource } from '../../src/modules/insights/answers.ts';

/** The rendered answers an API process keeps (src/modules/insights/answers.ts), told of changes by a test's source. */

const key: AnswerKey = { accountId: 'acc_1', from: 20_000, to: 20_364, metrics: 'views,likes' };
const who = { ownerId: 'own_1', profileId: 'prof_1' };

function changes(): ChangeSource & { tell(accountId: string | null): void; hearing: () => boolean; on: boolean } {
  let handler: (accountId: string | null) => void = () => {};
  const source = {
    on: true,
    hearing: () => source.on,
    subscribe: (h: (accountId: string | null) => void) => {
      handler = h;
    },
    tell: (accountId: string | null) => handler(accountId),
  };
  return source;
}

describe('answerCache', () => {
  it('gives back the bytes kept for an equal request, with who may see them and their tag as conditional requests compute it', () => {
    const cache = answerCache(1, changes());
    expect(cache.get(key)).toBeUndefined();
    const text = '{"account_id":"acc_1","metrics":{}}';
    const kept = cache.keep(cache.ticket(key), who, text);
    expect(kept.body.toString()).toBe(text);
    expect(kept.etag).toBe(`"${createHash('sha1').update(text).digest('base64url')}"`);
    expect(cache.get({ ...key })).toMatchObject({ body: kept.body, etag: kept.etag, ...who });
  });

  it('never gives it for a request that differs in anything', () => {
    const cache = answerCache(1, changes());
    cache.keep(cache.ticket(key), who, '{}');
    for (const other of [
      { accountId: 'acc_2' },
      { from: 20_001 },
      { to: 20_363 },
      { metrics: 'likes,views' },
      { metrics: 'views' },
      { metrics: undefined },
    ]) {
      expect(cache.get({ ...key, ...other }), JSON.stringify(other)).toBeUndefined();
    }
  });

  it("forgets an account's answers when told it changed, and every answer when told of every account", () => {
    const source = changes();
    const cache = answerCache(1, source);
    const other = { ...key, accountId: 'acc_2' };
    cache.keep(cache.ticket(key), who, '{"a":1}');
    cache.keep(cache.ticket(other), who, '{"b":1}');
    source.tell('acc_1');
    expect(cache.get(key)).toBeUndefined();
    expect(cache.get(other)?.body.toString()).toBe('{"b":1}');
    cache.keep(cache.ticket(key), who, '{"a":2}');
    expect(cache.get(key)?.body.toString()).toBe('{"a":2}');
    source.tell(null);
    expect(cache.get(key)).toBeUndefined();
    expect(cache.get(other)).toBeUndefined();
  });

  it('does not keep an answer read while a change of its account was heard', () => {
    const source = changes();
    const cache = answerCache(1, source);
    const ticket = cache.ticket(key);
    // The figures are read, and a refresh commits meanwhile: the answer may be older than it.
    source.tell('acc_1');
    expect(cache.keep(ticket, who, '{"old":1}').body.toString()).toBe('{"old":1}');
    expect(cache.get(key)).toBeUndefined();
    // Nor across a reconnection of the listener.
    const again = cache.ticket(key);
    source.tell(null);
    cache.keep(again, who, '{"old":2}');
    expect(cache.get(key)).toBeUndefined();
    // A change of another account does not matter.
    const third = cache.ticket(key);
    source.tell('acc_2');
    cache.keep(third, who, '{"new":1}');
    expect(cache.get(key)?.body.toString()).toBe('{"new":1}');
  });

  it('keeps and gives nothing while changes are not heard', () => {
    const source = changes();
    const cache = answerCache(1, source);
    cache.keep(cache.ticket(key), who, '{"a":1}');
    source.on = false;
    expect(cache.get(key)).toBeUndefined();
    const ticket = cache.ticket(key);
    source.on = true;
    cache.keep(ticket, who, '{"a":2}');
    // The one kept while heard; not the one whose ticket was taken while deaf.
    expect(cache.get(key)?.body.toString()).toBe('{"a":1}');
  });

  it('keeps at most its size, dropping the least recently asked first', () => {
    const cache = answerCache(1, changes());
    const big = (n: number) => `"${'x'.repeat(400_000)}${n}"`;
    const at = (n: number) => ({ ...key, accountId: `acc_${n}` });
    cache.keep(cache.ticket(at(1)), who, big(1));
    cache.keep(cache.ticket(at(2)), who, big(2));
    expect(cache.get(at(1))).toBeDefined();
    cache.keep(cache.ticket(at(3)), who, big(3));
    // 1 MB holds two: 2 was asked least recently.
    expect(cache.get(at(2))).toBeUndefined();
    expect(cache.get(at(1))?.body.toString()).toBe(big(1));
    expect(cache.get(at(3))?.body.toString()).toBe(big(3));
  });

  it('keeps nothing at a size of 0, and still renders', () => {
    const cache = answerCache(0, changes());
    expect(cache.keep(cache.ticket(key), who, '{"a":1}').body.toString()).toBe('{"a":1}');
    expect(cache.get(key)).toBeUndefined();
  });
});
