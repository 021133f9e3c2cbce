/** ReaderQueue: the one waiting-readers buffer behind persistent watches, stateChanges() and the recipes' events. */

import { describe, expect, it } from 'vitest';
import { ReaderQueue } from '../../src/util/reader-queue.js';

describe('ReaderQueue', () => {
  it('hands values out in push order, to readers that came before and after the push', async () => {
    const q = new ReaderQueue<number>();
    const early = q.next();
    q.push(1);
    q.push(2);
    expect(await early).toEqual({ value: 1, done: false });
    expect(await q.next()).toEqual({ value: 2, done: false });
  });

  it('wakes every waiting reader: two concurrent next() calls both get a value, none is stranded', async () => {
    const q = new ReaderQueue<string>();
    const a = q.next();
    const b = q.next();
    q.push('x');
    q.push('y');
    const got = await Promise.all([a, b]);
    expect(got.map((r) => r.value).sort()).toEqual(['x', 'y']);
  });

  it('after end(), readers drain what is queued, then get done; later pushes are ignored', async () => {
    const q = new ReaderQueue<number>();
    q.push(1);
    q.end();
    q.push(2);
    expect(q.ended).toBe(true);
    expect(q.size).toBe(1);
    expect(await q.next()).toEqual({ value: 1, done: false });
    expect(await q.next()).toEqual({ value: undefined, done: true });
  });

  it('end() releases readers already waiting', async () => {
    const q = new ReaderQueue<number>();
    const waiting = [q.next(), q.next()];
    q.end();
    expect(await Promise.all(waiting)).toEqual([
      { value: undefined, done: true },
      { value: undefined, done: true },
    ]);
  });

  it('discard() drops what is queued and ends', async () => {
    const q = new ReaderQueue<number>();
    q.push(1);
    q.discard();
    expect(q.size).toBe(0);
    expect(await q.next()).toEqual({ value: undefined, done: true });
  });
});
