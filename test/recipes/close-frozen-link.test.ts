import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { OpCode } from '../../src/protocol/opcodes.js';
import { describeFrames } from '../../src/session/describe-frames.js';
import { cleanupsSettled } from '../../src/recipes/common/nodes.js';
import { LeaderLatch } from '../../src/recipes/leader/leader-latch.js';
import { LeaderSelector } from '../../src/recipes/leader/leader-selector.js';
import { GroupMember } from '../../src/recipes/nodes/group-member.js';
import { PersistentNode } from '../../src/recipes/nodes/persistent-node.js';
import { childrenOf, eventually, lockPath, useProxiedServer } from './helpers.js';

/**
 * close() with the link frozen (issue #30): every background recipe that makes a node must settle its close()
 * promptly while no server answers, and the node it made must be gone once the link is back. Before the fix,
 * LeaderLatch and PersistentNode awaited their create (made without a stop signal) and then a delete retried in
 * waitConnected(), so close() stayed pending until a server answered again.
 *
 * Two moments: the link freezes while the create is in flight (the client still believes it is connected), and
 * the link freezes after the node is made, close() coming once the client has noticed (SUSPENDED).
 */
describe('close() on a frozen link', () => {
  const fx = useProxiedServer();

  /** A recipe under test: its directory (where its node goes) and how to start, await and close it. */
  interface Subject {
    start(): Promise<void>;
    ready(): Promise<unknown>;
    close(): Promise<void>;
  }

  /**
   * `inFlightBoundMs`: how soon close() must settle when the link froze with the create in flight. 1 s, except for
   * LeaderSelector, whose close() waits for the cleanup of the attempt it aborted while the client believes it is
   * connected (so it resolves with no node left): it settles once the client notices the frozen link, within
   * two-thirds of the 4 s session timeout.
   */
  const cases: { name: string; inFlightBoundMs?: number; make: (client: ZooKeeperClient, dir: string) => Subject }[] = [
    {
      name: 'LeaderLatch',
      make: (client, dir) => {
        const latch = new LeaderLatch(client, dir, { id: 'a' });
        return { start: () => latch.start(), ready: () => latch.await(), close: () => latch.close() };
      },
    },
    {
      name: 'PersistentNode (protected ephemeral-sequential)',
      make: (client, dir) => {
        const node = new PersistentNode(client, `${dir}/member-`, 'x', { mode: 'ephemeral-sequential' });
        return { start: () => node.start(), ready: () => node.waitForInitialCreate(), close: () => node.close() };
      },
    },
    {
      name: 'PersistentNode (ephemeral)',
      make: (client, dir) => {
        const node = new PersistentNode(client, `${dir}/node`, 'x');
        return { start: () => node.start(), ready: () => node.waitForInitialCreate(), close: () => node.close() };
      },
    },
    {
      name: 'PersistentNode (persistent: outlives the session)',
      make: (client, dir) => {
        const node = new PersistentNode(client, `${dir}/node`, 'x', { mode: 'persistent' });
        return { start: () => node.start(), ready: () => node.waitForInitialCreate(), close: () => node.close() };
      },
    },
    {
      name: 'GroupMember',
      make: (client, dir) => {
        const member = new GroupMember(client, dir, 'm1', 'x');
        let started: Promise<void> | undefined;
        return { start: () => (started = member.start()), ready: async () => started, close: () => member.close() };
      },
    },
    {
      name: 'LeaderSelector',
      inFlightBoundMs: 4000,
      make: (client, dir) => {
        const selector = new LeaderSelector(client, dir, async ({ signal }) => {
          await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        });
        return { start: () => selector.start(), ready: () => eventually(() => selector.hasLeadership(), 10_000, 'leading'), close: () => selector.close() };
      },
    },
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

  /** A client through the proxy that reports each create it sends. */
  async function viaProxy(onCreateSent: () => void): Promise<ZooKeeperClient> {
    return ZooKeeperClient.connect(fx.proxy.connectString, {
      sessionTimeoutMs: 4000,
      onFrame: describeFrames((t) => {
        if (t.dir === 'c2s' && (t.frame.opcode === OpCode.create2 || t.frame.opcode === OpCode.create)) onCreateSent();
      }),
    });
  }

  /** Every node under the recipe's directory, however deep: what the recipe made (the directory is a container). */
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

  for (const { name, make, inFlightBoundMs = 1000 } of cases) {
    it(`${name}: the link freezes with the create in flight; close() settles within ${inFlightBoundMs} ms, the node is gone once the link is back`, async () => {
      fx.proxy.pass();
      const dir = lockPath('recipe');
      let createsSent = 0;
      await using client = await viaProxy(() => createsSent++);
      fx.proxy.pause();
      const subject = make(client, dir);
      const started = subject.start();
      started.catch(() => undefined);
      await eventually(() => createsSent > 0, 10_000, 'a create sent into the frozen link');
      const closing = subject.close();
      const settled = await settlesWithin(closing, inFlightBoundMs);
      fx.proxy.pass();
      expect(settled).toBe(true);
      await closing;
      await cleanupsSettled(client);
      expect(await leftUnder(dir)).toEqual([]);
    });

    it(`${name}: the link freezes after the node is made; close() once the client notices settles within 1 s, the node goes after the reconnect`, async () => {
      fx.proxy.pass();
      const dir = lockPath('recipe');
      await using client = await viaProxy(() => undefined);
      const subject = make(client, dir);
      void subject.start().catch(() => undefined);
      await subject.ready();
      expect((await leftUnder(dir)).length).toBeGreaterThan(0);
      fx.proxy.pause();
      await eventually(() => client.state !== 'connected', 10_000, 'the client noticed the frozen link');
      const closing = subject.close();
      const settled = await settlesWithin(closing, 1000);
      fx.proxy.pass();
      expect(settled).toBe(true);
      await closing;
      await client.waitConnected();
      await cleanupsSettled(client);
      // an ephemeral node may also have gone with an expired session; a persistent one only by our delete
      await eventually(async () => (await leftUnder(dir)).length === 0, 10_000, 'nothing left behind');
    });
  }
});
