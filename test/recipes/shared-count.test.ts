import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { countFromBytes, countToBytes, SharedCount, type SharedCountEvent } from '../../src/recipes/shared/shared-count.js';
import { SharedValue } from '../../src/recipes/shared/shared-value.js';
import { supersedes } from '../../src/recipes/shared/versioned.js';
import { codeOf, eventually, lockPath, useClients, useProxiedServer } from './helpers.js';

describe('SharedCount / SharedValue', () => {
  const z = useClients(3);

  it('the first start seeds the node with 4 big-endian bytes; others see the value, changes and versions', async () => {
    const path = lockPath('count');
    await using a = new SharedCount(z(0), path, 7);
    await a.start();
    expect(a.getVersionedValue()).toEqual({ version: 0, value: 7 });
    expect([...(await z(2).getData(path)).data]).toEqual([0, 0, 0, 7]);
    await using b = new SharedCount(z(1), path, 99); // the seed is ignored: the node exists
    const heard: SharedCountEvent[] = [];
    b.addListener((e) => heard.push(e));
    await b.start();
    expect(b.getCount()).toBe(7);
    await a.setCount(-5);
    expect(a.getVersionedValue()).toEqual({ version: 1, value: -5 });
    await eventually(() => b.getCount() === -5, 10_000, 'b sees the change');
    expect(b.getVersionedValue()).toEqual({ version: 1, value: -5 });
    expect(heard).toEqual([{ type: 'countChanged', value: { version: 1, value: -5 } }]);
  });

  it('trySetCount writes only over the version it read; the loser is refreshed and can retry', async () => {
    const path = lockPath('count');
    await using a = new SharedCount(z(0), path, 0);
    await using b = new SharedCount(z(1), path, 0);
    await a.start();
    await b.start();
    const seenByB = b.getVersionedValue();
    expect(await a.trySetCount(a.getVersionedValue(), 1)).toBe(true);
    // b still holds version 0 locally or has heard already; either way its write over version 0 must fail
    expect(await b.trySetCount(seenByB, 100)).toBe(false);
    expect(b.getVersionedValue()).toEqual({ version: 1, value: 1 });
    expect(await b.trySetCount(b.getVersionedValue(), 2)).toBe(true);
    expect(countFromBytes((await z(2).getData(path)).data, path)).toBe(2);
    // a previous value that is not the local one fails without a write
    expect(await b.trySetCount({ version: 2, value: 12345 }, 3)).toBe(false);
    expect((await z(2).exists(path))?.version).toBe(2);
  });

  it('a node deleted and created again (version back to 0) is followed: ordering by mzxid, not by version', async () => {
    const path = lockPath('count');
    await using watcher = new SharedCount(z(0), path, 0);
    await watcher.start();
    for (let i = 1; i <= 3; i++) await z(1).setData(path, countToBytes(i));
    await eventually(() => watcher.getVersionedValue().version === 3, 10_000, 'version 3');
    await z(1).delete(path);
    await z(1).create(path, countToBytes(42));
    // a version-ordered cache (Curator before CURATOR-688's fix) would keep 3 for ever: 0 < 3
    await eventually(() => watcher.getCount() === 42, 10_000, 'the re-created value');
    expect(watcher.getVersionedValue()).toEqual({ version: 0, value: 42 });
    expect(await watcher.trySetCount(watcher.getVersionedValue(), 43)).toBe(true);
  });

  it('Stat.version wrapping past 2^31 - 1 does not freeze the value (CURATOR-688)', () => {
    const before = { version: 2 ** 31 - 1, mzxid: 1000n };
    const wrapped = { version: -(2 ** 31), mzxid: 1001n };
    expect(supersedes(wrapped, before)).toBe(true);
    expect(supersedes(before, wrapped)).toBe(false);
    expect(supersedes({ version: 5, mzxid: 1000n }, before)).toBe(false); // same write seen twice
  });

  it('events as an async iterable; the iterator ends on close', async () => {
    const path = lockPath('count');
    const count = new SharedCount(z(0), path, 0);
    await count.start();
    const values: number[] = [];
    const reading = (async () => {
      for await (const e of count.events()) if (e.type === 'countChanged') values.push(e.value.value);
    })();
    await count.setCount(1);
    await count.setCount(2);
    await eventually(() => values.length === 2, 10_000, 'two events');
    await count.close();
    await reading;
    expect(values).toEqual([1, 2]);
  });

  it('misuse is a typed error', async () => {
    const path = lockPath('count');
    const count = new SharedCount(z(0), path, 0);
    expect(() => count.getCount()).toThrow(expect.objectContaining({ code: 'ILLEGAL_STATE' }));
    expect(await codeOf(count.setCount(1))).toBe('ILLEGAL_STATE');
    expect(await codeOf(count.close())).toBe('ILLEGAL_STATE');
    await count.start();
    expect(await codeOf(count.start())).toBe('ILLEGAL_STATE');
    expect(() => count.setCount(1.5)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    expect(() => count.setCount(2 ** 31)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    await count.close();
    expect(await codeOf(count.close())).toBe('ILLEGAL_STATE');
    expect(await codeOf(count.setCount(1))).toBe('ILLEGAL_STATE');
    expect(() => new SharedCount(z(0), path, Number.NaN)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    expect(() => new SharedCount(z(0), 'nope', 0)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    // a node holding something other than a count
    const textPath = lockPath('text');
    await using text = new SharedValue(z(0), textPath, 'hello');
    await text.start();
    await using asCount = new SharedCount(z(1), textPath, 0);
    await asCount.start();
    expect(() => asCount.getCount()).toThrow(expect.objectContaining({ code: 'MARSHALLINGERROR' }));
    expect(new TextDecoder().decode(text.getValue())).toBe('hello');
  });
});

describe('SharedCount when the connection fails', () => {
  const fx = useProxiedServer();

  it('writes made while it was disconnected are seen after the reconnect, as one change event', async () => {
    const path = lockPath('count');
    await using client = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 10_000 });
    await using count = new SharedCount(client, path, 0);
    await count.start();
    const heard: number[] = [];
    count.addListener((e) => e.type === 'countChanged' && heard.push(e.value.value));
    fx.proxy.pause();
    await eventually(() => client.state !== 'connected', 15_000, 'disconnected');
    for (let i = 1; i <= 3; i++) await fx.direct.setData(path, countToBytes(i * 10));
    fx.proxy.pass();
    await eventually(() => count.getCount() === 30, 15_000, 'the latest value');
    expect(count.getVersionedValue()).toEqual({ version: 3, value: 30 });
    expect(heard.at(-1)).toBe(30);
    expect(heard.every((v, i) => i === 0 || v > (heard[i - 1] as number))).toBe(true); // never backwards
  });
});
