import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressWith, connect, type ZooKeeperClient } from '../../src/node.js';
import { CuratorCache } from '../../src/recipes/cache/curator-cache.js';
import { GzipCompression } from '../../src/recipes/compression/gzip.js';
import { sharedServer } from '../harness/zookeeper.js';
import { eventually, lockPath } from './helpers.js';

const text = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : new TextDecoder().decode(b));

/** CuratorCache's compressedData option (Curator's CuratorCache.Options.COMPRESSED_DATA) on a real server. */
describe('CuratorCache with compressedData', () => {
  let writer: ZooKeeperClient;
  let reader: ZooKeeperClient;

  beforeAll(async () => {
    const { connectString } = await sharedServer();
    [writer, reader] = await Promise.all([
      connect(connectString, { compression: compressWith(GzipCompression, { enabled: true }) }),
      connect(connectString, { compression: compressWith(GzipCompression) }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([writer?.close(), reader?.close()]);
  });

  for (const watchMode of ['persistent', 'one-shot'] as const) {
    it(`hands out the data decompressed, on load and on change (${watchMode} watches); without it, as stored`, async () => {
      const root = lockPath('cache-gz');
      // parents with no data, as mkdirp (and Curator's creatingParentsIfNeeded) leave them, read as empty
      await writer.mkdirp(`${root}/a`);
      await writer.create(`${root}/a/b`, 'compressed b');
      await using cache = new CuratorCache(reader, root, { watchMode, compressedData: true });
      await using raw = new CuratorCache(reader, root, { watchMode });
      await Promise.all([cache.start(), raw.start()]);
      expect(text(cache.get(`${root}/a/b`)?.data)).toBe('compressed b');
      expect(cache.get(`${root}/a`)?.data.length).toBe(0);
      const stored = raw.get(`${root}/a/b`)?.data;
      expect([stored?.[0], stored?.[1]]).toEqual([0x1f, 0x8b]);

      await writer.setData(`${root}/a/b`, 'changed b');
      await writer.create(`${root}/c`, 'new c');
      await eventually(() => text(cache.get(`${root}/a/b`)?.data) === 'changed b' && text(cache.get(`${root}/c`)?.data) === 'new c', 10_000, 'the changes, decompressed');
      await writer.deleteRecursive(root);
    });
  }
});
