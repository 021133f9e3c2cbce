/**
 * The queue family on a real server: every item consumed once with two consumers (normal and lock-safe), lock-safe
 * requeue and delete of a failed item, an item left by a consumer whose session expires mid-item and taken by
 * another, SimpleDistributedQueue's waits, and misuse refused before anything is sent.
 */

import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { OpCode } from '../../src/protocol/opcodes.js';
import { DistributedQueue } from '../../src/recipes/queues/distributed-queue.js';
import { utf8QueueSerializer } from '../../src/recipes/queues/item-format.js';
import { SimpleDistributedQueue } from '../../src/recipes/queues/simple-distributed-queue.js';
import { killSession } from '../../src/testing/kill-session.js';
import { childrenOf, codeOf, connectClient, eventually, lockPath, stillPending, useClients, useProxiedServer } from './helpers.js';

const text = (bytes: Uint8Array | null): string | null => (bytes === null ? null : new TextDecoder().decode(bytes));

describe('SimpleDistributedQueue', () => {
  const z = useClients(2);

  it('take() waits for an offer; poll() answers null at once or after its timeout; peek() leaves the head', async () => {
    const path = lockPath('simple');
    const queue = new SimpleDistributedQueue(z(0), path);
    expect(await queue.peek()).toBeNull();
    expect(await queue.poll()).toBeNull();
    expect(await queue.poll({ timeoutMs: 100 })).toBeNull();
    const taking = queue.take();
    expect(await stillPending(taking)).toBe(true);
    await new SimpleDistributedQueue(z(1), path).offer('first');
    expect(text(await taking)).toBe('first');
    await queue.offer(new Uint8Array([1, 2]));
    expect(Array.from((await queue.peek()) ?? [])).toEqual([1, 2]);
    expect(Array.from((await queue.poll()) ?? [])).toEqual([1, 2]);
    // served from a full queue: no watch is left on the server
    await queue.offer('x');
    expect(text(await queue.take())).toBe('x');
    expect(await z(0).checkWatches(path, 'children')).toBe(false);
  });

  it('two takers over one queue: every item taken exactly once', async () => {
    const path = lockPath('simple');
    const items = Array.from({ length: 30 }, (_, i) => `item-${i}`);
    const producer = new SimpleDistributedQueue(z(0), path);
    for (const item of items) await producer.offer(item);
    const taken: string[][] = [[], []];
    await Promise.all(
      [0, 1].map(async (i) => {
        const queue = new SimpleDistributedQueue(z(i), path);
        for (let item = await queue.poll(); item !== null; item = await queue.poll()) taken[i]?.push(text(item) as string);
      }),
    );
    expect([...(taken[0] ?? []), ...(taken[1] ?? [])].sort()).toEqual([...items].sort());
    expect(await childrenOf(z(0), path)).toEqual([]);
  });

  it('an aborted take() rejects ABORTED and takes its watch back; a bad path or item is BAD_ARGUMENT', async () => {
    const path = lockPath('simple');
    const controller = new AbortController();
    const taking = new SimpleDistributedQueue(z(0), path).take({ signal: controller.signal });
    await eventually(() => z(0).checkWatches(path, 'children'), 10_000, 'take() waits on a watch');
    controller.abort();
    expect(await codeOf(taking)).toBe('ABORTED');
    await eventually(async () => !(await z(0).checkWatches(path, 'children')), 10_000, 'the watch taken back');
    expect(() => new SimpleDistributedQueue(z(0), 'relative')).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    expect(await codeOf(new SimpleDistributedQueue(z(0), lockPath('simple')).offer(42 as unknown as string))).toBe('BAD_ARGUMENT');
  });
});

describe('DistributedQueue', () => {
  const z = useClients(2);

  /** Two started consumers on `path`, each with its own client, collecting what they consume. */
  async function twoConsumers(path: string, lockPathOption: string | undefined): Promise<{ got: string[][]; queues: DistributedQueue<string>[] }> {
    const got: string[][] = [[], []];
    const queues = [0, 1].map(
      (i) =>
        new DistributedQueue(z(i), path, {
          serializer: utf8QueueSerializer,
          consumer: (item) => void got[i]?.push(item),
          ...(lockPathOption === undefined ? {} : { lockPath: lockPathOption }),
        }),
    );
    await Promise.all(queues.map((q) => q.start()));
    return { got, queues };
  }

  for (const mode of ['normal', 'lock-safe'] as const) {
    it(`${mode}: two consumers, every item consumed exactly once`, async () => {
      const path = lockPath('queue');
      const locks = mode === 'lock-safe' ? `${path}-locks` : undefined;
      const items = Array.from({ length: 40 }, (_, i) => `item-${i}`);
      const { got, queues } = await twoConsumers(path, locks);
      await using producer = new DistributedQueue(z(0), path, { serializer: utf8QueueSerializer });
      await producer.start();
      for (let i = 0; i < items.length; i += 4) await (i % 8 === 0 ? producer.putMulti(items.slice(i, i + 4)) : Promise.all(items.slice(i, i + 4).map((item) => producer.put(item))));
      await eventually(() => (got[0]?.length ?? 0) + (got[1]?.length ?? 0) >= items.length, 20_000, 'all consumed');
      await Promise.all(queues.map((q) => q.close()));
      expect([...(got[0] ?? []), ...(got[1] ?? [])].sort()).toEqual([...items].sort());
      expect(await childrenOf(z(0), path)).toEqual([]);
      if (locks !== undefined) expect(await childrenOf(z(0), locks)).toEqual([]);
    });
  }

  it('lock-safe: a consumer that throws has its node put back (REQUEUE) or dropped (DELETE)', async () => {
    for (const errorMode of ['REQUEUE', 'DELETE'] as const) {
      const path = lockPath('queue');
      const seen: string[] = [];
      const errors: unknown[] = [];
      let failures = 0;
      await using queue = new DistributedQueue(z(0), path, {
        serializer: utf8QueueSerializer,
        lockPath: `${path}-locks`,
        errorMode,
        onError: (err) => void errors.push(err),
        consumer: (item) => {
          seen.push(item);
          if (item === 'bad' && failures++ === 0) throw new Error('first try fails');
        },
      });
      await queue.start();
      await queue.put('bad');
      await queue.put('good');
      await eventually(() => seen.includes('good') && (errorMode === 'DELETE' || seen.filter((s) => s === 'bad').length === 2), 10_000, `${errorMode}: consumed`);
      await eventually(async () => (await childrenOf(z(0), path)).length === 0, 10_000, 'queue empty');
      expect(seen.filter((s) => s === 'bad').length, errorMode).toBe(errorMode === 'REQUEUE' ? 2 : 1);
      expect(errors).toEqual([expect.objectContaining({ message: 'first try fails' })]);
    }
  });

  it('lock-safe: a consumer whose session expires mid-item leaves it; another consumer takes it, once', async () => {
    const path = lockPath('queue');
    const locks = `${path}-locks`;
    await using dying = await connectClient();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let aborted = false;
    const firstGot: string[] = [];
    await using first = new DistributedQueue(dying, path, {
      serializer: utf8QueueSerializer,
      lockPath: locks,
      consumer: async (item, { signal }) => {
        firstGot.push(item);
        signal.addEventListener('abort', () => (aborted = true));
        await held;
      },
    });
    await first.start();
    await using producer = new DistributedQueue(z(0), path, { serializer: utf8QueueSerializer });
    await producer.start();
    await producer.put('only');
    await eventually(() => firstGot.length === 1, 10_000, 'the first consumer holds the item');
    expect(await childrenOf(z(0), locks)).toHaveLength(1);

    const secondGot: string[] = [];
    await using second = new DistributedQueue(z(1), path, { serializer: utf8QueueSerializer, lockPath: locks, consumer: (item) => void secondGot.push(item) });
    await second.start();
    expect(await stillPending(eventually(() => secondGot.length > 0, 10_000))).toBe(true); // locked: the second waits

    await killSession(dying);
    await eventually(() => secondGot.length === 1, 10_000, 'the second consumer took the item');
    expect(aborted).toBe(true);
    release(); // the first consumer's handler ends after its lock went: it must not delete or take anything more
    await eventually(async () => (await childrenOf(z(0), path)).length === 0 && (await childrenOf(z(0), locks)).length === 0, 10_000, 'all gone');
    await dying.waitConnected();
    await producer.put('after');
    await eventually(() => firstGot.length + secondGot.length === 3, 10_000, 'the next item consumed');
    expect(secondGot[0]).toBe('only');
    expect([...firstGot, ...secondGot].filter((s) => s === 'only')).toHaveLength(2); // once each: the first never finished it
  });

  it('misuse: no serializer, a bad lock path or error mode is BAD_ARGUMENT; put before start ILLEGAL_STATE', async () => {
    const path = lockPath('queue');
    expect(() => new DistributedQueue(z(0), path, {} as never)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    expect(() => new DistributedQueue(z(0), path, { serializer: utf8QueueSerializer, lockPath: 'x' })).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    expect(() => new DistributedQueue(z(0), path, { serializer: utf8QueueSerializer, errorMode: 'KEEP' as never })).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    const queue = new DistributedQueue(z(0), path, { serializer: utf8QueueSerializer });
    expect(await codeOf(queue.put('x'))).toBe('ILLEGAL_STATE');
    await queue.start();
    expect(await codeOf(queue.putMulti([]))).toBe('BAD_ARGUMENT');
    await queue.close();
    expect(await codeOf(queue.put('x'))).toBe('ILLEGAL_STATE');
  });
});

describe('DistributedQueue close() with the client disconnected', () => {
  const fx = useProxiedServer();

  it('a lock-safe consumer mid-item: close() settles at once, the item stays, its lock goes once the link is back', async () => {
    fx.proxy.pass();
    const path = lockPath('queue');
    const locks = `${path}-locks`;
    await using client = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 10_000 });
    let got = 0;
    // a consumer that never ends and ignores its signal
    const queue = new DistributedQueue(client, path, { serializer: utf8QueueSerializer, lockPath: locks, consumer: () => new Promise<void>(() => void got++) });
    await queue.start();
    await using producer = new DistributedQueue(fx.direct, path, { serializer: utf8QueueSerializer });
    await producer.start();
    await producer.put('kept');
    await eventually(() => got === 1, 10_000, 'the consumer holds the item');

    fx.proxy.pause();
    fx.proxy.resetAll();
    await eventually(() => client.state !== 'connected', 10_000, 'the client sees the link down');
    const closing = queue.close();
    expect(await stillPending(closing, 1000)).toBe(false);
    await closing;
    expect(await childrenOf(fx.direct, path)).toHaveLength(1);

    fx.proxy.pass();
    await client.waitConnected();
    await eventually(async () => (await childrenOf(fx.direct, locks)).length === 0, 10_000, 'the lock deleted after the reconnect');
    const taken: string[] = [];
    await using other = new DistributedQueue(fx.direct, path, { serializer: utf8QueueSerializer, lockPath: locks, consumer: (item) => void taken.push(item) });
    await other.start();
    await eventually(() => taken.length === 1, 10_000, 'another consumer took the item');
    expect(taken).toEqual(['kept']);
  });

  it('a lock create whose reply never comes, stopped by close(): the lock is found and deleted, in the background', async () => {
    fx.proxy.pass();
    const path = lockPath('queue');
    const locks = `${path}-locks`;
    await using client = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 10_000 });
    const queue = new DistributedQueue(client, path, { serializer: utf8QueueSerializer, lockPath: locks, consumer: () => undefined });
    await queue.start();
    fx.proxy.dropReplies((reply) => reply.opcode === OpCode.create || reply.opcode === OpCode.create2);
    await using producer = new DistributedQueue(fx.direct, path, { serializer: utf8QueueSerializer });
    await producer.start();
    await producer.put('item');
    await eventually(async () => (await childrenOf(fx.direct, locks)).length === 1, 10_000, 'the lock made, its reply dropped');
    fx.proxy.pass();
    await queue.close();
    // the reply that never came breaks the link (the next reply is for another xid): the delete follows the reconnect
    await eventually(async () => (await childrenOf(fx.direct, locks)).length === 0, 10_000, 'our lock deleted');
    expect(await childrenOf(fx.direct, path)).toHaveLength(1); // never consumed: left for the next consumer
  });

  it('an idle consumer waiting on its watch, the link frozen: close() settles within a second', async () => {
    fx.proxy.pass();
    const path = lockPath('queue');
    await using client = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 10_000 });
    const queue = new DistributedQueue(client, path, { serializer: utf8QueueSerializer, consumer: () => undefined });
    await queue.start();
    await eventually(() => client.checkWatches(path, 'children'), 10_000, 'the consumer waits on its watch');
    fx.proxy.pause();
    const closing = queue.close();
    expect(await stillPending(closing, 1000)).toBe(false);
    fx.proxy.pass();
    await closing;
  });
});
