import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { OpCode } from '../../src/protocol/opcodes.js';
import { describeFrames } from '../../src/session/describe-frames.js';
import { cleanupsSettled } from '../../src/recipes/common/nodes.js';
import { CuratorCache } from '../../src/recipes/cache/curator-cache.js';
import { SharedValue } from '../../src/recipes/shared/shared-value.js';
import { SharedCount } from '../../src/recipes/shared/shared-count.js';
import { DistributedAtomicLong } from '../../src/recipes/atomic/distributed-atomic-long.js';
import { DistributedBarrier } from '../../src/recipes/barriers/distributed-barrier.js';
import { DistributedDoubleBarrier } from '../../src/recipes/barriers/double-barrier.js';
import { ServiceDiscovery } from '../../src/recipes/discovery/service-discovery.js';
import { ServiceCache } from '../../src/recipes/discovery/service-cache.js';
import { serviceInstance } from '../../src/recipes/discovery/service-instance.js';
import { InterProcessMutex } from '../../src/recipes/locks/mutex.js';
import { watchLeader } from '../../src/recipes/leader/watch-leader.js';
import { PersistentTtlNode } from '../../src/recipes/nodes/persistent-ttl-node.js';
import { InterProcessSemaphoreV2 } from '../../src/recipes/locks/semaphore-v2.js';
import { DistributedQueue } from '../../src/recipes/queues/distributed-queue.js';
import { utf8QueueSerializer } from '../../src/recipes/queues/item-format.js';
import { SimpleDistributedQueue } from '../../src/recipes/queues/simple-distributed-queue.js';
import { childrenOf, eventually, lockPath, useProxiedServer } from './helpers.js';

/**
 * close() with the link frozen (issue #30), for the recipes close-frozen-link.test.ts does not cover (the queue's
 * items() iteration, PersistentTtlNode and watchLeader among them): the link
 * freezes while the client still believes it is connected and the recipe's first request is in flight; close()
 * (or, for a call with no recipe to close, the caller's abort) must settle within 1 s, and whatever node the
 * recipe made must be gone once the link is back.
 */
describe('close() on a frozen link, the other recipes', () => {
  const fx = useProxiedServer();

  /** A recipe under test: how to start it (its first request goes into the frozen link) and how to stop it. */
  interface Subject {
    start(): Promise<unknown>;
    stop(): Promise<unknown>;
  }

  /** For calls that have no close(): the call carries `signal`, and stopping it is the caller's abort. */
  function call(run: (signal: AbortSignal) => Promise<unknown>): Subject {
    const controller = new AbortController();
    let running: Promise<unknown> = Promise.resolve();
    return {
      start: () => (running = run(controller.signal)),
      stop: async () => {
        controller.abort();
        await running.catch(() => undefined);
      },
    };
  }

  function lifecycle(recipe: { start(): Promise<unknown>; close(): Promise<void> }): Subject {
    return { start: () => recipe.start(), stop: () => recipe.close() };
  }

  const cases: { name: string; make: (client: ZooKeeperClient, dir: string) => Subject }[] = [
    { name: 'CuratorCache', make: (client, dir) => lifecycle(new CuratorCache(client, dir)) },
    { name: 'SharedValue', make: (client, dir) => lifecycle(new SharedValue(client, `${dir}/value`, 'seed')) },
    { name: 'SharedCount', make: (client, dir) => lifecycle(new SharedCount(client, `${dir}/count`, 7)) },
    {
      name: 'ServiceDiscovery (registering)',
      make: (client, dir) => {
        const discovery = new ServiceDiscovery(client, { basePath: dir });
        return {
          start: async () => {
            const started = discovery.start();
            await discovery.registerService(serviceInstance({ name: 'svc', address: 'h', port: 1 }));
            await started;
          },
          stop: () => discovery.close(),
        };
      },
    },
    { name: 'ServiceCache', make: (client, dir) => lifecycle(new ServiceCache(client, 'svc', { basePath: dir })) },
    { name: 'DistributedAtomicLong.increment', make: (client, dir) => call((signal) => new DistributedAtomicLong(client, `${dir}/n`).increment({ signal })) },
    { name: 'DistributedBarrier.waitOnBarrier', make: (client, dir) => call((signal) => new DistributedBarrier(client, `${dir}/b`).waitOnBarrier({ signal })) },
    { name: 'DistributedDoubleBarrier.enter', make: (client, dir) => call((signal) => new DistributedDoubleBarrier(client, dir, 2).enter({ signal })) },
    { name: 'InterProcessMutex.acquire', make: (client, dir) => call((signal) => new InterProcessMutex(client, dir).acquire({ signal })) },
    {
      name: 'DistributedQueue (lock-safe consumer)',
      make: (client, dir) => lifecycle(new DistributedQueue(client, `${dir}/q`, { serializer: utf8QueueSerializer, lockPath: `${dir}/locks`, consumer: () => undefined })),
    },
    {
      name: 'DistributedQueue.items() (lock-safe, iterating)',
      make: (client, dir) => {
        const queue = new DistributedQueue(client, `${dir}/q`, { serializer: utf8QueueSerializer, lockPath: `${dir}/locks` });
        return {
          start: async () => {
            void queue.start();
            for await (const item of queue.items()) void item;
          },
          stop: () => queue.close(),
        };
      },
    },
    { name: 'PersistentTtlNode', make: (client, dir) => lifecycle(new PersistentTtlNode(client, `${dir}/ttl`, 10_000, 'x')) },
    {
      name: 'watchLeader',
      make: (client, dir) =>
        call(async (signal) => {
          for await (const seen of watchLeader(client, `${dir}/latch`, { signal })) void seen;
        }),
    },
    { name: 'SimpleDistributedQueue.take', make: (client, dir) => call((signal) => new SimpleDistributedQueue(client, `${dir}/q`).take({ signal })) },
    { name: 'InterProcessSemaphoreV2.acquireOne', make: (client, dir) => call((signal) => new InterProcessSemaphoreV2(client, dir, 1).acquireOne({ signal })) },
  ];

  /** Resolves true if `p` settles within `ms`, false otherwise (a bound, not a synchronisation). */
  async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    try {
      return await Promise.race([p.then(() => true, () => true), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Every node under `dir`, however deep. */
  async function leftUnder(dir: string): Promise<string[]> {
    const found: string[] = [];
    const walk = async (path: string): Promise<void> => {
      for (const child of await childrenOf(fx.direct, path)) {
        found.push(`${path}/${child}`);
        await walk(`${path}/${child}`);
      }
    };
    await walk(dir);
    return found;
  }

  for (const { name, make } of cases) {
    it(`${name}: the link freezes with its first request in flight; it settles within 1 s and leaves no node once the link is back`, async () => {
      fx.proxy.pass();
      const dir = lockPath('recipe');
      let requestsSent = 0;
      await using client = await ZooKeeperClient.connect(fx.proxy.connectString, {
        sessionTimeoutMs: 4000,
        onFrame: describeFrames((t) => {
          if (t.dir === 'c2s' && t.frame.opcode !== OpCode.ping) requestsSent++;
        }),
      });
      await client.getChildren('/');
      requestsSent = 0;
      fx.proxy.pause();
      const subject = make(client, dir);
      subject.start().catch(() => undefined);
      await eventually(() => requestsSent > 0, 10_000, 'a request sent into the frozen link');
      const stopping = subject.stop();
      const settled = await settlesWithin(stopping, 1000);
      fx.proxy.pass();
      expect(settled).toBe(true);
      await stopping;
      await client.waitConnected();
      await cleanupsSettled(client);
      await eventually(async () => (await leftUnder(dir)).filter((p) => !/\/(value|count|n|q|locks)$/.test(p)).length === 0, 10_000, 'nothing left behind');
    });
  }
});
