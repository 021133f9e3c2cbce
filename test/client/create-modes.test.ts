import { describe, expect, it } from 'vitest';
import { codeOf, connectShared, errorOf, uniquePath } from './helpers.js';
import { describeFrames } from '../../src/session/describe-frames.js';

describe('create modes', () => {
  it('appends a 10-digit sequence for sequential modes, also to a trailing-slash prefix', async () => {
    await using zk = await connectShared();
    const root = uniquePath();
    await zk.create(root);
    const a = await zk.create(`${root}/lock-`, null, { mode: 'persistent-sequential' });
    const b = await zk.create(`${root}/lock-`, null, { mode: 'ephemeral-sequential' });
    expect(a).toBe(`${root}/lock-0000000000`);
    expect(b).toBe(`${root}/lock-0000000001`);
    const c = await zk.create(`${root}/`, null, { mode: 'persistent-sequential' });
    expect(c).toBe(`${root}/0000000002`);
    await zk.deleteRecursive(root);
  });

  it('creates ephemerals owned by the session, removed when it closes', async () => {
    const path = uniquePath();
    const owner = await connectShared();
    await owner.create(path, null, { mode: 'ephemeral' });
    const stat = await owner.exists(path);
    expect(stat?.ephemeralOwner).toBe(owner.sessionId);
    expect(await codeOf(owner.create(`${path}/child`))).toBe('NOCHILDRENFOREPHEMERALS');
    expect(await owner.getEphemerals()).toContain(path);
    await owner.close();
    await using other = await connectShared();
    expect(await other.exists(path)).toBeNull();
  });

  it('returns the Stat through create2, containers and TTL nodes', async () => {
    await using zk = await connectShared();
    const root = uniquePath();
    const plain = await zk.create(root, 'x', { stat: true });
    expect(plain.path).toBe(root);
    expect(plain.stat.dataLength).toBe(1);
    expect(plain.stat.version).toBe(0);
    const container = await zk.create(`${root}/c`, null, { mode: 'container', stat: true });
    expect(container.path).toBe(`${root}/c`);
    expect(container.stat.ephemeralOwner).toBe(0n);
    const ttl = await zk.create(`${root}/t`, null, { mode: 'ttl', ttl: 60_000 });
    expect(ttl).toBe(`${root}/t`);
    const ttlSeq = await zk.create(`${root}/s-`, null, { mode: 'ttl-sequential', ttl: 60_000, stat: true });
    expect(ttlSeq.path).toMatch(new RegExp(`^${root}/s-\\d{10}$`));
    await zk.deleteRecursive(root);
  });

  it('refuses bad paths, modes, ttls and oversized data before sending', async () => {
    const frames: string[] = [];
    await using zk = await connectShared({ onFrame: describeFrames((f) => f.dir === 'c2s' && frames.push(f.frame.op ?? f.frame.kind)) });
    const sentBefore = frames.length;
    for (const bad of ['', 'a', '/a/', '/a//b', '/a/./b', '/a/../b', '/a\u0000b', '/a\u0001', '/\ud83d\ude00']) {
      const err = await errorOf(zk.create(bad));
      expect(err.code, JSON.stringify(bad)).toBe('BAD_ARGUMENT');
      expect(err.op).toBe('create');
      expect(err.path).toBe(bad);
    }
    expect(await codeOf(zk.getData('/x/'))).toBe('BAD_ARGUMENT');
    expect(await codeOf(zk.create('/x', null, { mode: 'bogus' as never }))).toBe('BAD_ARGUMENT');
    expect(await codeOf(zk.create('/x', null, { mode: 'ttl' }))).toBe('BAD_ARGUMENT');
    expect(await codeOf(zk.create('/x', null, { mode: 'ttl', ttl: 0 }))).toBe('BAD_ARGUMENT');
    expect(await codeOf(zk.create('/x', null, { ttl: 5 }))).toBe('BAD_ARGUMENT');
    const big = new Uint8Array(2 * 1024 * 1024);
    const tooBig = await errorOf(zk.setData('/x', big));
    expect(tooBig.code).toBe('BAD_ARGUMENT');
    expect(tooBig.path).toBe('/x');
    expect(frames.length).toBe(sentBefore);
  });

  it('stores data close to the maximum size', async () => {
    await using zk = await connectShared();
    const path = uniquePath();
    const data = new Uint8Array(1_000_000).fill(7);
    await zk.create(path, data);
    const got = await zk.getData(path);
    expect(got.data.length).toBe(data.length);
    expect(got.data[999_999]).toBe(7);
    await zk.delete(path);
  });

  it('maps server-side argument errors (reserved nodes) to BADARGUMENTS', async () => {
    await using zk = await connectShared();
    expect(await codeOf(zk.delete('/zookeeper'))).toBe('BADARGUMENTS');
  });
});
