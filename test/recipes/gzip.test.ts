import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gzipCompress, gzipDecompress, GzipCompression } from '../../src/recipes/compression/gzip.js';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('gzip node data (Curator GzipCompressionProvider format)', () => {
  it('round-trips, and reads gzip from another writer (zlib)', async () => {
    for (const data of [bytes('hello'), new Uint8Array(100_000).map((_, i) => i % 7), new Uint8Array([0, 255])]) {
      expect(await gzipDecompress(await gzipCompress(data))).toEqual(data);
      expect(await gzipDecompress(new Uint8Array(gzipSync(data)))).toEqual(data);
    }
  });

  it('writes Curator\'s exact 20 bytes for empty data and reads them back empty', async () => {
    const empty = await gzipCompress(new Uint8Array(0));
    expect([...empty]).toEqual([31, 139, 8, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(await gzipDecompress(empty)).toEqual(new Uint8Array(0));
    expect(await GzipCompression.decompress('/p', await GzipCompression.compress('/p', bytes('x')))).toEqual(bytes('x'));
  });

  it('refuses what is not gzip, or damaged, with MARSHALLINGERROR naming the path', async () => {
    const good = await gzipCompress(bytes('some data that is long enough'));
    const flipped = good.slice();
    flipped[flipped.length - 6] = (flipped[flipped.length - 6] ?? 0) ^ 0xff; // the CRC
    const lengthWrong = good.slice();
    lengthWrong[lengthWrong.length - 1] = 9;
    const cases: Uint8Array[] = [
      bytes('{"plain":"json", "not": "gzip at all"}'),
      new Uint8Array(0),
      good.subarray(0, good.length - 3),
      flipped,
      lengthWrong,
      new Uint8Array([...good, ...good]),
      Object.assign(good.slice(), { 2: 7 }),
    ];
    for (const data of cases) {
      const err = await gzipDecompress(data, '/app/node').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, String([...data.subarray(0, 4)])).toMatchObject({ code: 'MARSHALLINGERROR', path: '/app/node' });
    }
  });
});
