import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { DistributedBarrier } from '../../src/recipes/barriers/distributed-barrier.js';
import { DistributedDoubleBarrier } from '../../src/recipes/barriers/double-barrier.js';
import { childrenOf, codeOf, eventually, lockPath, stillPending, useClients, useProxiedServer } from './helpers.js';

/** A client whose method calls are counted by name (to prove a wait sends nothing while it waits). */
function counted(client: ZooKeeperClient): { client: ZooKeeperClient; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const proxy = new Proxy(client, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.set(String(prop), (calls.get(String(prop)) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { client: proxy, calls };
}

describe('DistributedBarrier', () => {
  const z = useClients(3);

  it('waiters pass only once the barrier is removed; spurious wake-ups do not release them', async () => {
    const path = lockPath('barrier');
    const barrier = new DistributedBarrier(z(0), path);
    expect(await barrier.waitOnBarrier()).toBe(true); // not raised: passes at once
    await barrier.setBarrier();
    await barrier.setBarrier(); // twice is fine
    const waiting = [new DistributedBarrier(z(1), path).waitOnBarrier(), new DistributedBarrier(z(2), path).waitOnBarrier()];
    expect(await stillPending(Promise.race(waiting))).toBe(true);
    await z(0).setData(path, 'poke'); // fires the watches without lowering the barrier
    expect(await stillPending(Promise.race(waiting))).toBe(true);
    expect(await new DistributedBarrier(z(1), path).waitOnBarrier({ timeoutMs: 100 })).toBe(false);
    const controller = new AbortController();
    const aborted = codeOf(new DistributedBarrier(z(1), path).waitOnBarrier({ signal: controller.signal }));
    controller.abort();
    expect(await aborted).toBe('ABORTED');
    await barrier.removeBarrier();
    expect(await Promise.all(waiting)).toEqual([true, true]);
    await barrier.removeBarrier(); // twice is fine
  });
});

describe('DistributedDoubleBarrier', () => {
  const z = useClients(3);

  it('enter waits for memberQty members, even through spurious wake-ups (GitHub #1290); leave waits for all to go', async () => {
    const path = lockPath('barrier');
    const watched = counted(z(0));
    const members = [watched.client, z(1), z(2)].map((c) => new DistributedDoubleBarrier(c, path, 3));
    const first = members[0]!.enter();
    const second = members[1]!.enter();
    await eventually(async () => (await childrenOf(z(2), path)).length === 2, 10_000, 'two arrived');
    const looks = watched.calls.get('exists');
    // wake the first waiter without anything having changed: its watch on `ready` is taken away
    await z(0).removeWatches(`${path}/ready`, 'any');
    await eventually(() => (watched.calls.get('exists') ?? 0) > (looks ?? 0), 10_000, 'the woken member looked again');
    expect(await stillPending(Promise.race([first, second]))).toBe(true);
    expect(members[0]?.state).toBe('ENTERING');
    const third = members[2]!.enter();
    expect(await Promise.all([first, second, third])).toEqual([true, true, true]);
    expect((await childrenOf(z(2), path)).sort()).toContain('ready');

    // leaving: nobody gets out before the last member has left
    const leaving0 = members[0]!.leave();
    const leaving1 = members[1]!.leave();
    expect(await stillPending(Promise.race([leaving0, leaving1]))).toBe(true);
    await members[2]!.leave();
    expect(await Promise.all([leaving0, leaving1])).toEqual([true, true]);
    expect(await childrenOf(z(2), path)).toEqual([]);
    expect(members.map((m) => m.state)).toEqual(['IDLE', 'IDLE', 'IDLE']);
  });

  it('leave waits on watches, not by polling (CURATOR-233)', async () => {
    const path = lockPath('barrier');
    const watched = counted(z(0));
    const a = new DistributedDoubleBarrier(watched.client, path, 2);
    const b = new DistributedDoubleBarrier(z(1), path, 2);
    await Promise.all([a.enter(), b.enter()]);
    const leaving = a.leave();
    expect(await stillPending(leaving, 300)).toBe(true);
    const before = [...watched.calls.values()].reduce((x, y) => x + y, 0);
    expect(await stillPending(leaving, 300)).toBe(true);
    expect([...watched.calls.values()].reduce((x, y) => x + y, 0)).toBe(before); // nothing sent while waiting
    await b.leave();
    expect(await leaving).toBe(true);
  });

  it('a timed-out or aborted enter takes its node back; misuse is a typed error', async () => {
    const path = lockPath('barrier');
    const barrier = new DistributedDoubleBarrier(z(0), path, 2);
    expect(await codeOf(barrier.leave())).toBe('ILLEGAL_STATE');
    expect(await barrier.enter({ timeoutMs: 100 })).toBe(false);
    expect(await childrenOf(z(1), path)).toEqual([]);
    const controller = new AbortController();
    const aborted = codeOf(barrier.enter({ signal: controller.signal }));
    await eventually(async () => (await childrenOf(z(1), path)).length === 1, 10_000, 'joined');
    expect(await codeOf(barrier.enter())).toBe('ILLEGAL_STATE');
    controller.abort();
    expect(await aborted).toBe('ABORTED');
    expect(await childrenOf(z(1), path)).toEqual([]);
    expect(() => new DistributedDoubleBarrier(z(0), path, 0)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
  });
});

describe('DistributedDoubleBarrier through connection faults', () => {
  const fx = useProxiedServer();

  it('a member waiting through a dropped connection still enters when the last arrives, and leaves cleanly', async () => {
    fx.proxy.pass();
    const path = lockPath('barrier');
    await using client = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 10_000 });
    const waiting = new DistributedDoubleBarrier(client, path, 2);
    const entering = waiting.enter();
    await eventually(async () => (await childrenOf(fx.direct, path)).length === 1, 10_000, 'joined');
    const dropped = new Promise<void>((resolve) => {
      const off = client.onStateChange((change) => {
        if (change.event === 'SUSPENDED') {
          off();
          resolve();
        }
      });
    });
    fx.proxy.resetAll();
    await dropped;
    expect(await stillPending(entering)).toBe(true);
    const last = new DistributedDoubleBarrier(fx.direct, path, 2);
    expect(await last.enter({ timeoutMs: 10_000 })).toBe(true);
    expect(await entering).toBe(true);
    const leaving = waiting.leave();
    fx.proxy.resetAll();
    expect(await last.leave({ timeoutMs: 15_000 })).toBe(true);
    expect(await leaving).toBe(true);
    expect(await childrenOf(fx.direct, path)).toEqual([]);
  });
});
