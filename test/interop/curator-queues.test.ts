import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZooKeeperClient } from '../../src/node.js';
import { utf8Encode } from '../../src/protocol/utf8.js';
import { DistributedDelayQueue } from '../../src/recipes/queues/distributed-delay-queue.js';
import { DistributedIdQueue } from '../../src/recipes/queues/distributed-id-queue.js';
import { DistributedPriorityQueue } from '../../src/recipes/queues/distributed-priority-queue.js';
import { DistributedQueue } from '../../src/recipes/queues/distributed-queue.js';
import { utf8QueueSerializer } from '../../src/recipes/queues/item-format.js';
import { SimpleDistributedQueue } from '../../src/recipes/queues/simple-distributed-queue.js';
import { sharedServer } from '../harness/zookeeper.js';
import { childrenOf, connectClient, eventually, lockPath } from '../recipes/helpers.js';
import { startCuratorPeer, type CuratorPeer } from './curator-peer.js';

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
const bytes = (s: string): Uint8Array => utf8Encode(s);

/** zkwire's queue family and Apache Curator 5.4's on one queue node: each consumes what the other put, in order. */
describe('interop with Apache Curator queues', () => {
  let zk: ZooKeeperClient;
  let curator: CuratorPeer;

  beforeAll(async () => {
    const { connectString } = await sharedServer();
    [zk, curator] = await Promise.all([connectClient(connectString), startCuratorPeer(connectString)]);
  });
  afterAll(async () => {
    await Promise.all([zk?.close(), curator?.close()]);
  });

  /** A started zkwire consumer queue of `make`'s kind, and what it consumed, in order. */
  function collecting<Q>(make: (consumer: (item: string) => void) => Q): { queue: Q; got: string[] } {
    const got: string[] = [];
    return { queue: make((item) => void got.push(item)), got };
  }

  it('SimpleDistributedQueue: Curator offers, zkwire takes in order; zkwire offers, Curator polls in order', async () => {
    const path = lockPath('simple');
    const queue = new SimpleDistributedQueue(zk, path);
    for (const item of ['a', 'b', '']) await curator.sqOffer(path, bytes(item));
    expect((await childrenOf(zk, path)).every((name) => /^qn-\d{10}$/.test(name))).toBe(true);
    expect([text(await queue.take()), text(await queue.take()), text(await queue.take())]).toEqual(['a', 'b', '']);
    expect(await queue.poll()).toBeNull();

    for (const item of ['x', 'y']) await queue.offer(item);
    const polled = [await curator.sqPoll(path, 5000), await curator.sqPoll(path, 5000)];
    expect(polled.map((item) => item && text(item))).toEqual(['x', 'y']);
    expect(await curator.sqPoll(path, 0)).toBeNull();
  });

  it('DistributedQueue: a Curator producer (put and putMulti) and a zkwire lock-safe consumer, and the reverse', async () => {
    const path = lockPath('queue');
    const locks = `${path}-locks`;
    const producer = await curator.queueStart('plain', path, { consume: false });
    await curator.queuePut(producer, [bytes('one')]);
    await curator.queuePut(producer, [bytes('two'), bytes(''), bytes('four')]);
    expect((await childrenOf(zk, path)).every((name) => /^queue-\d{10}$/.test(name))).toBe(true);
    const { queue, got } = collecting((consumer) => new DistributedQueue(zk, path, { serializer: utf8QueueSerializer, consumer, lockPath: locks }));
    await queue.start();
    await eventually(() => got.length === 4, 10_000, 'zkwire consumed Curator’s items');
    expect(got).toEqual(['one', 'two', '', 'four']);
    await eventually(async () => (await childrenOf(zk, path)).length === 0 && (await childrenOf(zk, locks)).length === 0, 10_000, 'items and locks gone');
    await queue.close();
    await curator.queueClose(producer);

    const consumerN = await curator.queueStart('plain', path, { consume: true, lockPath: locks });
    await using zkProducer = new DistributedQueue(zk, path, { serializer: utf8QueueSerializer });
    await zkProducer.start();
    await zkProducer.put('alpha');
    await zkProducer.putMulti(['beta', 'gamma']);
    await curator.waitForEvent(new RegExp(`^queue n=${consumerN} item=${Buffer.from('gamma').toString('base64')}$`));
    expect(curator.queueItems(consumerN).map(text)).toEqual(['alpha', 'beta', 'gamma']);
    await curator.queueClose(consumerN);
  });

  it('lock-safe DistributedQueue: a Curator consumer and a zkwire consumer on one queue take every item exactly once', async () => {
    const path = lockPath('queue');
    const locks = `${path}-locks`;
    const items = Array.from({ length: 30 }, (_, i) => `item-${i}`);
    const curatorN = await curator.queueStart('plain', path, { consume: true, lockPath: locks });
    const { queue, got } = collecting((consumer) => new DistributedQueue(zk, path, { serializer: utf8QueueSerializer, consumer, lockPath: locks }));
    await queue.start();
    await using producer = new DistributedQueue(zk, path, { serializer: utf8QueueSerializer });
    await producer.start();
    await Promise.all(items.map((item) => producer.put(item)));
    await eventually(async () => (await childrenOf(zk, path)).length === 0, 20_000, 'the queue drained');
    await curator.queueClose(curatorN);
    await queue.close();
    const fromCurator = curator.queueItems(curatorN).map(text);
    expect([...got, ...fromCurator].sort()).toEqual([...items].sort());
    // none of ours is left (Curator's close() interrupts its consumer thread, which may leave its own lock until its
    // session ends)
    const owners = await Promise.all((await childrenOf(zk, locks)).map(async (name) => (await zk.exists(`${locks}/${name}`))?.ephemeralOwner));
    expect(owners.filter((owner) => owner === zk.sessionId)).toEqual([]);
  });

  it('DistributedPriorityQueue: lowest priority first, with Curator’s names, both ways', async () => {
    const path = lockPath('priority');
    const producer = await curator.queueStart('priority', path, { consume: false });
    for (const [item, priority] of [['late', 10], ['first', -5], ['mid', 0], ['mid2', 0]] as const) await curator.queuePut(producer, [bytes(item)], priority);
    const names = (await childrenOf(zk, path)).sort();
    expect(names.map((name) => name.slice(0, -10))).toEqual(['queue-0FFFFFFFB', 'queue-100000000', 'queue-100000000', 'queue-10000000A']);
    const { queue, got } = collecting((consumer) => new DistributedPriorityQueue(zk, path, { serializer: utf8QueueSerializer, consumer }));
    await queue.start();
    await eventually(() => got.length === 4, 10_000, 'zkwire consumed');
    expect(got).toEqual(['first', 'mid', 'mid2', 'late']);
    await queue.close();
    await curator.queueClose(producer);

    await using zkProducer = new DistributedPriorityQueue(zk, path, { serializer: utf8QueueSerializer });
    await zkProducer.start();
    for (const [item, priority] of [['z', 2 ** 31 - 1], ['a', -(2 ** 31)], ['m', 1]] as const) await zkProducer.put(item, priority);
    expect((await childrenOf(zk, path)).map((name) => name.slice(0, -10)).sort()).toEqual(['queue-080000000', 'queue-100000001', 'queue-17FFFFFFF']);
    const consumerN = await curator.queueStart('priority', path, { consume: true });
    await curator.waitForEvent(new RegExp(`^queue n=${consumerN} item=${Buffer.from('z').toString('base64')}$`));
    expect(curator.queueItems(consumerN).map(text)).toEqual(['a', 'm', 'z']);
    await curator.queueClose(consumerN);
  });

  it('DistributedDelayQueue: an item Curator delays is not consumed by zkwire before its time, and the reverse', async () => {
    const path = lockPath('delay');
    const producer = await curator.queueStart('delay', path, { consume: false });
    const due = Date.now() + 1500;
    await curator.queuePut(producer, [bytes('later')], due);
    await curator.queuePut(producer, [bytes('now')], Date.now() - 1000);
    const consumedAt: number[] = [];
    const { queue, got } = collecting((consumer) => new DistributedDelayQueue(zk, path, { serializer: utf8QueueSerializer, consumer: (item: string) => { consumedAt.push(Date.now()); consumer(item); } }));
    await queue.start();
    await eventually(() => got.length === 2, 10_000, 'zkwire consumed both');
    expect(got).toEqual(['now', 'later']);
    expect(consumedAt[1]).toBeGreaterThanOrEqual(due);
    await queue.close();
    await curator.queueClose(producer);

    await using zkProducer = new DistributedDelayQueue(zk, path, { serializer: utf8QueueSerializer });
    await zkProducer.start();
    const zkDue = Date.now() + 1500;
    await zkProducer.put('delayed', zkDue);
    expect(await childrenOf(zk, path)).toEqual([expect.stringMatching(new RegExp(`^queue-\\|${zkDue.toString(16).toUpperCase()}\\|\\d{10}$`))]);
    const consumerN = await curator.queueStart('delay', path, { consume: true });
    await curator.waitForEvent(new RegExp(`^queue n=${consumerN} item=`));
    expect(Date.now()).toBeGreaterThanOrEqual(zkDue);
    expect(curator.queueItems(consumerN).map(text)).toEqual(['delayed']);
    await curator.queueClose(consumerN);
  });

  it('DistributedIdQueue: ids in Curator’s names; each side removes by id what the other put', async () => {
    const path = lockPath('ids');
    const producer = await curator.queueStart('id', path, { consume: false });
    await curator.queuePut(producer, [bytes('keep')], 'k1');
    await curator.queuePut(producer, [bytes('drop')], 'a/b');
    await using zkQueue = new DistributedIdQueue(zk, path, { serializer: utf8QueueSerializer });
    await zkQueue.start();
    expect(await zkQueue.remove('a/b')).toBe(1);
    await zkQueue.put('mine', 'z|1');
    expect((await childrenOf(zk, path)).map((name) => name.slice(0, -10)).sort()).toEqual(['queue-|k1|', 'queue-|z_1|']);
    expect(await curator.queueRemove(producer, 'z_1')).toBe(1);
    await curator.queueClose(producer);

    const { queue, got } = collecting((consumer) => new DistributedIdQueue(zk, path, { serializer: utf8QueueSerializer, consumer }));
    await queue.start();
    await eventually(() => got.length === 1, 10_000, 'zkwire consumed');
    expect(got).toEqual(['keep']);
    await queue.close();
  });
});
