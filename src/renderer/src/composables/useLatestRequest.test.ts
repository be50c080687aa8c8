import { describe, expect, it } from 'vitest';
import { useLatestRequest } from './useLatestRequest';

/** a promise the test settles by hand, to answer requests in any order */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('useLatestRequest', () => {
  it('a slow older answer never overwrites a newer one', async () => {
    const requests = useLatestRequest();
    const shown: string[] = [];
    const older = deferred<string>();
    const newer = deferred<string>();
    const first = requests.run(() => older.promise, { onAnswer: (a) => void shown.push(a) });
    const second = requests.run(() => newer.promise, { onAnswer: (a) => void shown.push(a) });
    newer.resolve('newer');
    await second;
    older.resolve('older');
    await first;
    expect(shown).toEqual(['newer']);
  });

  it('drops the errors of stale requests and hands the latest one its own', async () => {
    const requests = useLatestRequest();
    const errors: unknown[] = [];
    const older = deferred<string>();
    const newer = deferred<string>();
    const first = requests.run(() => older.promise, { onError: (e) => void errors.push(e) });
    const second = requests.run(() => newer.promise, { onError: (e) => void errors.push(e) });
    older.reject(new Error('stale'));
    await first;
    expect(errors).toEqual([]);
    newer.reject(new Error('latest'));
    await second;
    expect(errors).toEqual([new Error('latest')]);
  });

  it('settles only the latest request, after its answer or its failure', async () => {
    const requests = useLatestRequest();
    const events: string[] = [];
    const older = deferred<number>();
    const first = requests.run(() => older.promise, { onSettled: () => void events.push('older settled') });
    await requests.run(async () => 2, { onAnswer: (a) => void events.push(`answer ${a}`), onSettled: () => void events.push('settled') });
    await requests.run(() => Promise.reject(new Error('no')), { onError: () => void events.push('error'), onSettled: () => void events.push('settled') });
    older.resolve(1);
    await first;
    expect(events).toEqual(['answer 2', 'settled', 'error', 'settled']);
  });

  it('invalidate makes every request in flight stale', async () => {
    const requests = useLatestRequest();
    const events: string[] = [];
    const pending = deferred<string>();
    const asked = requests.run(() => pending.promise, {
      onAnswer: () => void events.push('answer'), onError: () => void events.push('error'), onSettled: () => void events.push('settled'),
    });
    requests.invalidate();
    pending.resolve('late');
    await asked;
    expect(events).toEqual([]);
  });

  it('a ticket taken before the asking goes stale when a later one is taken', async () => {
    const requests = useLatestRequest();
    const first = requests.next();
    expect(first.isLatest()).toBe(true);
    const second = requests.next();
    expect(first.isLatest()).toBe(false);
    expect(second.isLatest()).toBe(true);
    const shown: string[] = [];
    await first.settle(async () => 'first', { onAnswer: (a) => void shown.push(a) });
    await second.settle(async () => 'second', { onAnswer: (a) => void shown.push(a) });
    expect(shown).toEqual(['second']);
  });

  it('awaits an answer handler that asks more, and a failure there reaches onError', async () => {
    const requests = useLatestRequest();
    const events: string[] = [];
    await requests.run(async () => 'a', {
      onAnswer: async () => {
        await Promise.resolve();
        events.push('answer done');
        throw new Error('while handling');
      },
      onError: (e) => void events.push((e as Error).message),
      onSettled: () => void events.push('settled'),
    });
    expect(events).toEqual(['answer done', 'while handling', 'settled']);
  });

  it('throws the latest failure when no onError takes it, but never a stale one', async () => {
    const requests = useLatestRequest();
    const older = deferred<string>();
    const first = requests.run(() => older.promise, {});
    await expect(requests.run(() => Promise.reject(new Error('latest')), {})).rejects.toThrow('latest');
    older.reject(new Error('stale'));
    await expect(first).resolves.toBeUndefined();
  });
});
