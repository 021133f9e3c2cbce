/**
 * queue.items(): the queue's consumer as an async iterator, on a real server. Every item once, in order; an item
 * counts as consumed when the loop asks for the next one or is left; leaving the loop, the caller's abort and close()
 * each end the iteration (a waiting next() settles); in lock-safe mode the item in hand at close() stays in the
 * queue; misuse is ILLEGAL_STATE before anything is sent.
 */

import { describe, expect, it } from 'vitest';
import { DistributedPriorityQueue } from '../../src/recipes/queues/distributed-priority-queue.js';
import { DistributedQueue } from '../../src/recipes/queues/distributed-queue.js';
import { utf8QueueSerializer } from '../../src/recipes/queues/item-format.js';
import { childrenOf, codeOf, lockPath, stillPending, useClients } from './helpers.js';

describe('queue.items()', () => {
  const z = useClients(2);

  it('every item once, in put order (putMulti items together); leaving the loop consumes the item in hand and frees the queue for another items()', async () => {
    const path = lockPath('queue-items');
    await using producer = new DistributedQueue(z(0), path, { serializer: utf8QueueSerializer });
    await using queue = new DistributedQueue(z(1), path, { serializer: utf8QueueSerializer });
    await Promise.all([producer.start(), queue.start()]);
    await producer.put('a');
    await producer.putMulti(['b', 'c']);
    await producer.put('d');
    const got: string[] = [];
    for await (const item of queue.items()) {
      got.push(item);
      if (got.length === 4) break;
    }
    expect(got).toEqual(['a', 'b', 'c', 'd']);
    expect(await childrenOf(z(0), path)).toEqual([]);
    // the first iteration has ended: a second one may begin, and takes what comes next
    await producer.put('e');
    for await (const item of queue.items()) {
      expect(item).toBe('e');
      break;
    }
    expect(await childrenOf(z(0), path)).toEqual([]);
  });

  it("the caller's abort ends an idle iteration: the waiting next() settles as done", async () => {
    const path = lockPath('queue-items');
    await using queue = new DistributedQueue(z(0), path, { serializer: utf8QueueSerializer });
    await queue.start();
    const controller = new AbortController();
    const iterator = queue.items({ signal: controller.signal });
    const next = iterator.next();
    expect(await stillPending(next)).toBe(true);
    controller.abort();
    await expect(next).resolves.toEqual({ value: undefined, done: true });
    await expect(iterator.next()).resolves.toEqual({ value: undefined, done: true });
  });

  it('lock-safe: close() with an item in hand ends the iteration and leaves the item, and no lock, for the next consumer', async () => {
    const path = lockPath('queue-items');
    const locks = `${path}-locks`;
    const queue = new DistributedQueue(z(0), path, { serializer: utf8QueueSerializer, lockPath: locks });
    await queue.start();
    await queue.put('kept');
    const iterator = queue.items();
    await expect(iterator.next()).resolves.toEqual({ value: 'kept', done: false });
    expect(await childrenOf(z(0), locks)).toHaveLength(1); // ours, while the item is in hand
    await queue.close();
    await expect(iterator.next()).resolves.toEqual({ value: undefined, done: true });
    expect(await childrenOf(z(0), locks)).toEqual([]);
    expect(await childrenOf(z(0), path)).toHaveLength(1);

    await using next = new DistributedQueue(z(1), path, { serializer: utf8QueueSerializer, lockPath: locks });
    await next.start();
    for await (const item of next.items()) {
      expect(item).toBe('kept');
      break;
    }
    expect(await childrenOf(z(0), path)).toEqual([]);
    expect(await childrenOf(z(0), locks)).toEqual([]);
  });

  it('misuse: before start(), beside a consumer option, or a second items() at once: ILLEGAL_STATE', async () => {
    const path = lockPath('queue-items');
    const queue = new DistributedQueue(z(0), path, { serializer: utf8QueueSerializer });
    expect(await codeOf((async () => queue.items())())).toBe('ILLEGAL_STATE');
    await queue.start();
    const first = queue.items();
    expect(await codeOf((async () => queue.items())())).toBe('ILLEGAL_STATE');
    await first.return?.();
    const again = queue.items(); // the first has ended
    await again.return?.();
    await queue.close();
    await using consuming = new DistributedQueue(z(0), path, { serializer: utf8QueueSerializer, consumer: () => undefined });
    await consuming.start();
    expect(await codeOf((async () => consuming.items())())).toBe('ILLEGAL_STATE');
  });

  it('a priority queue iterates in priority order', async () => {
    const path = lockPath('queue-items');
    await using queue = new DistributedPriorityQueue(z(0), path, { serializer: utf8QueueSerializer });
    await queue.start();
    await queue.put('low', 9);
    await queue.put('high', -3);
    await queue.put('middle', 0);
    const got: string[] = [];
    for await (const item of queue.items()) {
      got.push(item);
      if (got.length === 3) break;
    }
    expect(got).toEqual(['high', 'middle', 'low']);
  });
});
