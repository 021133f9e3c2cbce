import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { OpCode } from '../../src/protocol/opcodes.js';
import { DistributedAtomicLong, longFromBytes } from '../../src/recipes/atomic/distributed-atomic-long.js';
import { noRetry } from '../../src/session/retry-policy.js';
import { codeOf, lockPath, useClients, useProxiedServer } from './helpers.js';

describe('DistributedAtomicLong', () => {
  const z = useClients(3);

  it('reads 0 when missing; every change reports pre/post values; data is Curator’s 8 big-endian bytes', async () => {
    const path = lockPath('counter');
    const counter = new DistributedAtomicLong(z(0), path);
    expect(await counter.get()).toMatchObject({ succeeded: true, preValue: 0n, postValue: 0n });
    expect(await counter.increment()).toMatchObject({ succeeded: true, preValue: 0n, postValue: 1n });
    expect([...(await z(1).getData(path)).data]).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(await counter.add(41)).toMatchObject({ succeeded: true, preValue: 1n, postValue: 42n });
    expect(await counter.subtract(2n)).toMatchObject({ preValue: 42n, postValue: 40n });
    expect(await counter.decrement()).toMatchObject({ preValue: 40n, postValue: 39n });
    const other = new DistributedAtomicLong(z(1), path);
    expect((await other.get()).postValue).toBe(39n);
    // wraps at 64 bits like Java's long
    await counter.forceSet(2n ** 63n - 1n);
    expect(await counter.increment()).toMatchObject({ succeeded: true, postValue: -(2n ** 63n) });
    expect(longFromBytes((await z(1).getData(path)).data, path)).toBe(-(2n ** 63n));
  });

  it('compareAndSet, trySet, forceSet, initialize', async () => {
    const path = lockPath('counter');
    const counter = new DistributedAtomicLong(z(0), path);
    expect((await counter.compareAndSet(0, 5)).succeeded).toBe(false); // no node: nothing to compare
    expect(await counter.initialize(10)).toBe(true);
    expect(await counter.initialize(99)).toBe(false);
    expect(await counter.compareAndSet(3, 5)).toMatchObject({ succeeded: false, preValue: 10n, postValue: 10n });
    expect(await counter.compareAndSet(10, 5)).toMatchObject({ succeeded: true, preValue: 10n, postValue: 5n });
    expect(await counter.trySet(-7)).toMatchObject({ succeeded: true, preValue: 5n, postValue: -7n });
    await counter.forceSet(100);
    expect((await counter.get()).postValue).toBe(100n);
  });

  it('concurrent increments from three sessions: succeeded results add up exactly; with the promoted mutex all succeed', async () => {
    const path = lockPath('counter');
    const lockDir = `${path}-lock`;
    const counters = [0, 1, 2].map((i) => new DistributedAtomicLong(z(i), path, { retry: noRetry, promotedToLock: { path: lockDir } }));
    const results = await Promise.all(counters.flatMap((c) => Array.from({ length: 15 }, () => c.increment())));
    expect(results.every((r) => r.succeeded)).toBe(true);
    expect((await counters[0]?.get())?.postValue).toBe(45n);
    const posts = results.map((r) => r.postValue).sort((a, b) => (a < b ? -1 : 1));
    expect(posts).toEqual(Array.from({ length: 45 }, (_, i) => BigInt(i + 1))); // each value written exactly once
    expect(results.some((r) => r.stats.promotedLockTries > 0)).toBe(true);

    // without promotion and without retries some give up; the ones that report success are exactly what was added
    const path2 = lockPath('counter');
    const plain = [0, 1, 2].map((i) => new DistributedAtomicLong(z(i), path2, { retry: noRetry }));
    const tries = await Promise.all(plain.flatMap((c) => Array.from({ length: 15 }, () => c.increment())));
    const succeeded = tries.filter((r) => r.succeeded).length;
    expect(succeeded).toBeGreaterThan(0);
    expect((await plain[0]?.get())?.postValue).toBe(BigInt(succeeded));
    expect(tries.filter((r) => !r.succeeded).every((r) => r.preValue === r.postValue)).toBe(true);
  });

  it('misuse and bad data are typed errors; an aborted signal rejects with ABORTED', async () => {
    const path = lockPath('counter');
    const counter = new DistributedAtomicLong(z(0), path);
    expect(() => counter.add(1.5)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    expect(() => counter.trySet(2n ** 64n)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    expect(() => new DistributedAtomicLong(z(0), 'x')).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    expect(await codeOf(counter.increment({ signal: AbortSignal.abort() }))).toBe('ABORTED');
    await z(1).mkdirp(path, { data: 'abc' });
    expect(await codeOf(counter.get())).toBe('MARSHALLINGERROR');
  });
});

describe('DistributedAtomicLong when a reply is lost', () => {
  const fx = useProxiedServer();

  it('a write whose reply is lost is never sent again: CONNECTIONLOSS, and the increment applied at most once', async () => {
    const path = lockPath('counter');
    await using client = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 10_000 });
    const counter = new DistributedAtomicLong(client, path);
    await counter.forceSet(0);
    let dropped = 0;
    fx.proxy.dropReplies((frame) => frame.opcode === OpCode.setData && dropped++ === 0);
    expect(await codeOf(counter.increment())).toBe('CONNECTIONLOSS');
    fx.proxy.pass();
    expect(longFromBytes((await fx.direct.getData(path)).data, path)).toBe(1n); // applied once, not twice
    expect(await counter.increment()).toMatchObject({ succeeded: true, preValue: 1n, postValue: 2n });
  });
});
