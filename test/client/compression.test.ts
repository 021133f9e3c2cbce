import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressWith, connect, Op, usingNamespace, type ZooKeeperClient } from '../../src/node.js';
import type { CompressionProvider } from '../../src/client/types.js';
import { GzipCompression } from '../../src/recipes/compression/gzip.js';
import { sharedServer } from '../harness/zookeeper.js';
import { codeOf, dec, enc, errorOf, uniquePath } from './helpers.js';

const isGzip = (b: Uint8Array): boolean => b[0] === 0x1f && b[1] === 0x8b;

/** The client's `compression` option and per-call flags, against a real server (read back raw by a plain client). */
describe('compressed node data (Curator\'s compressionProvider, .compressed(), .decompressed())', () => {
  let plain: ZooKeeperClient;
  let some: ZooKeeperClient;
  let all: ZooKeeperClient;

  beforeAll(async () => {
    const { connectString } = await sharedServer();
    [plain, some, all] = await Promise.all([
      connect(connectString),
      connect(connectString, { compression: compressWith(GzipCompression) }),
      connect(connectString, { compression: compressWith(GzipCompression, { enabled: true }) }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([plain?.close(), some?.close(), all?.close()]);
  });

  it('per call: create and setData with compressed: true store gzip; getData with decompressed: true reads it', async () => {
    const root = uniquePath('gz');
    await plain.create(root);
    await some.create(`${root}/a`, 'hello compressed', { compressed: true });
    const stored = (await plain.getData(`${root}/a`)).data;
    expect(isGzip(stored)).toBe(true);
    expect(dec(gunzipSync(stored))).toBe('hello compressed');
    expect(dec((await some.getData(`${root}/a`, { decompressed: true })).data)).toBe('hello compressed');
    // without the flag, as stored (the option alone, not enabled, changes nothing)
    expect((await some.getData(`${root}/a`)).data).toEqual(stored);
    const stat = await some.setData(`${root}/a`, enc('second'), { compressed: true, version: 0 });
    expect(stat.version).toBe(1);
    const { data, watch } = await some.getData(`${root}/a`, { decompressed: true, watch: true });
    expect(dec(data)).toBe('second');
    await plain.setData(`${root}/a`, 'x');
    expect((await watch).type).toBe('NodeDataChanged');
    // a node with no data, created compressed, holds Curator's gzip of nothing
    await some.create(`${root}/empty`, null, { compressed: true });
    expect((await plain.getData(`${root}/empty`)).data.length).toBe(20);
    expect((await some.getData(`${root}/empty`, { decompressed: true })).data.length).toBe(0);
    await plain.deleteRecursive(root);
  });

  it('enabled: every create, setData and getData (multi and multiRead too), unless the call says false', async () => {
    const root = uniquePath('gz');
    await all.create(root);
    await all.create(`${root}/a`, 'one');
    expect(dec(gunzipSync((await plain.getData(`${root}/a`)).data))).toBe('one');
    expect(dec((await all.getData(`${root}/a`)).data)).toBe('one');
    await all.setData(`${root}/a`, 'two');
    expect(dec((await all.getData(`${root}/a`)).data)).toBe('two');
    await all.create(`${root}/raw`, 'as is', { compressed: false });
    expect(dec((await plain.getData(`${root}/raw`)).data)).toBe('as is');
    expect(dec((await all.getData(`${root}/raw`, { decompressed: false })).data)).toBe('as is');
    // reading data that is not gzip with decompression on is a typed error naming the path
    expect(await errorOf(all.getData(`${root}/raw`))).toMatchObject({ code: 'MARSHALLINGERROR', path: `${root}/raw` });

    await all.multi([Op.create(`${root}/m`, 'in multi'), Op.setData(`${root}/a`, 'three'), Op.create(`${root}/m-raw`, 'raw', { compressed: false })]);
    expect(dec(gunzipSync((await plain.getData(`${root}/m`)).data))).toBe('in multi');
    expect(dec((await plain.getData(`${root}/m-raw`)).data)).toBe('raw');
    const [m, a, raw] = await all.multiRead([Op.getData(`${root}/m`), Op.getData(`${root}/a`), Op.getData(`${root}/m-raw`, { decompressed: false })]);
    expect([m, a, raw].map((r) => (r?.type === 'getData' ? dec(r.data) : r?.type))).toEqual(['in multi', 'three', 'raw']);
    // per op in a client that compresses only on request
    await some.multi([Op.setData(`${root}/m-raw`, 'packed', -1, { compressed: true })]);
    const [packed] = await some.multiRead([Op.getData(`${root}/m-raw`, { decompressed: true })]);
    expect(packed?.type === 'getData' && dec(packed.data)).toBe('packed');
    await plain.deleteRecursive(root);
  });

  it('keeps call order as wire order: calls made after a compressed write reach the server after it', async () => {
    const path = uniquePath('gz-order');
    // not awaited in between: the create must be applied before the plain setData and the getData
    const created = some.create(path, 'compressed first', { compressed: true });
    const set = some.setData(path, 'plain second');
    const read = some.getData(path);
    const exists = some.exists(path);
    await created;
    expect((await set).version).toBe(1);
    expect(dec((await read).data)).toBe('plain second');
    expect(await exists).not.toBeNull();
    // two compressed writes in a row, then a plain one: applied in that order
    const writes = [some.setData(path, 'c1', { compressed: true }), some.setData(path, 'c2', { compressed: true }), some.setData(path, 'last')];
    expect((await Promise.all(writes)).map((s) => s.version)).toEqual([2, 3, 4]);
    expect(dec((await plain.getData(path)).data)).toBe('last');
    await plain.delete(path);
  });

  it('a compression that fails rejects its call only; the calls behind it still go, in order', async () => {
    const failing: CompressionProvider = {
      compress: (path) => Promise.reject(new Error(`cannot compress ${path}`)),
      decompress: (_path, data) => Promise.resolve(data),
    };
    const { connectString } = await sharedServer();
    await using client = await connect(connectString, { compression: compressWith(failing) });
    const path = uniquePath('gz-fail');
    const bad = client.create(path, 'x', { compressed: true });
    const good = client.create(path, 'y');
    await expect(bad).rejects.toThrow(/cannot compress/);
    expect(await good).toBe(path);
    expect(dec((await plain.getData(path)).data)).toBe('y');
    await plain.delete(path);
  });

  it('an abort or a close while the data is compressing settles the call (ABORTED, CLOSED) and writes nothing', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // compresses only once the test lets it: the calls are in flight while it waits
    const held: CompressionProvider = {
      compress: async (_path, data) => {
        await gate;
        return data;
      },
      decompress: (_path, data) => Promise.resolve(data),
    };
    const { connectString } = await sharedServer();
    const client = await connect(connectString, { compression: compressWith(held, { enabled: true }) });
    const path = uniquePath('gz-abort');
    const abort = new AbortController();
    const aborted = codeOf(client.create(`${path}-a`, 'x', { signal: abort.signal }));
    const behind = codeOf(client.exists('/'));
    abort.abort();
    // settled by the abort itself, while the data is still compressing
    expect(await aborted).toBe('ABORTED');
    const closing = codeOf(client.create(`${path}-c`, 'y'));
    const closed = client.close();
    release();
    expect(await closing).toBe('CLOSED');
    // the request queued behind the compressed writes settles too (the close came first)
    expect(await behind).toBe('CLOSED');
    await closed;
    expect(await plain.exists(`${path}-a`)).toBeNull();
    expect(await plain.exists(`${path}-c`)).toBeNull();
  });

  it('a namespace view compresses as its client does', async () => {
    const ns = uniquePath('gz-ns').slice(1);
    const view = usingNamespace(all, ns);
    await view.create('/a', 'in a namespace');
    expect(dec(gunzipSync((await plain.getData(`/${ns}/a`)).data))).toBe('in a namespace');
    expect(dec((await view.getData('/a')).data)).toBe('in a namespace');
    await plain.deleteRecursive(`/${ns}`);
  });

  it('refuses a flag without the option, and a compression option or provider that is not one, with BAD_ARGUMENT', async () => {
    const path = uniquePath('gz-bad');
    expect(await codeOf(plain.create(path, 'x', { compressed: true }))).toBe('BAD_ARGUMENT');
    expect(await codeOf(plain.getData('/', { decompressed: true }))).toBe('BAD_ARGUMENT');
    expect(await codeOf(plain.multi([Op.create(path, 'x', { compressed: true })]))).toBe('BAD_ARGUMENT');
    expect(await plain.exists(path)).toBeNull();
    const { connectString } = await sharedServer();
    // what a Curator user might write first: the provider itself, or an object of options
    expect(await codeOf(connect(connectString, { compression: GzipCompression as never }))).toBe('BAD_ARGUMENT');
    expect(() => compressWith({ compress: () => Promise.resolve(new Uint8Array()) } as never)).toThrow(/compressWith takes a provider/);
  });
});
