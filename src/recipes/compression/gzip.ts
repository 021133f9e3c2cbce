/**
 * Gzip for node data, interoperable with Curator's GzipCompressionProvider both ways: what a Java app writes with
 * `.compressed()` (or `enableCompression()`) is gzip bytes on the server, read here with gzipDecompress; what
 * gzipCompress writes, Curator's `.decompressed()` reads. Through the platform's CompressionStream and
 * DecompressionStream (Node 18+, Deno, Bun, browsers, workerd): no dependency.
 *
 * `GzipCompression` is the client's `compression` provider (`connect(hosts, { compression: { provider:
 * GzipCompression } })`, then `compressed: true` / `decompressed: true` per call, or `enabled: true` for all, as
 * Curator's `.compressed()` and `enableCompression()`); the two functions do the same by hand. Data that is not
 * gzip, or damaged gzip, is a MARSHALLINGERROR naming the path, never bytes of garbage.
 */

import type { CompressionProvider } from '../../client/types.js';
import { recipeError } from '../common/errors.js';

/** Curator's gzip of no bytes (GzipCompressionProvider writes exactly these for empty data). */
const EMPTY_GZIP = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]);

/** Gzips `data` as node data Curator's `.decompressed()` reads. Empty data gives Curator's own 20 bytes. */
export async function gzipCompress(data: Uint8Array): Promise<Uint8Array> {
  if (data.length === 0) return EMPTY_GZIP.slice();
  return pipe(new CompressionStream('gzip'), data);
}

/**
 * The bytes gzipped in `data` (what Curator wrote with `.compressed()`). MARSHALLINGERROR, with `path` when given,
 * when `data` is not gzip or is damaged (bad header, truncated, checksum or length mismatch, trailing bytes).
 */
export async function gzipDecompress(data: Uint8Array, path?: string): Promise<Uint8Array> {
  const bad = (detail: string, cause?: unknown): Error => recipeError('MARSHALLINGERROR', 'gzipDecompress', path, detail, cause);
  // header (10) + the shortest deflate stream (2) + trailer (8), as Curator checks
  if (data.length < 20 || data[0] !== 0x1f || data[1] !== 0x8b) throw bad(`not gzip data (${data.length} bytes${data.length >= 2 ? `, starting ${hex(data.subarray(0, 2))}` : ''})`);
  if (data[2] !== 8) throw bad(`gzip compression method ${String(data[2])}, not deflate`);
  let out: Uint8Array;
  try {
    out = await pipe(new DecompressionStream('gzip'), data);
  } catch (err) {
    throw bad(`damaged gzip data: ${err instanceof Error ? err.message : String(err)}`, err);
  }
  // the trailer's length (mod 2^32) must match: DecompressionStream checks the CRC, and this also catches a
  // second gzip member or junk after the first, which Curator refuses
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (view.getUint32(data.length - 4, true) !== out.length >>> 0) throw bad('damaged gzip data: the trailer does not match the content (or bytes follow it)');
  return out;
}

/** gzipCompress and gzipDecompress as a Curator-style provider (the path only names the node in errors). */
export const GzipCompression: CompressionProvider = {
  compress: (_path, data) => gzipCompress(data),
  decompress: (path, data) => gzipDecompress(data, path),
};

function hex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join(' ');
}

async function pipe(stream: CompressionStream | DecompressionStream, data: Uint8Array): Promise<Uint8Array> {
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  // written and read concurrently: backpressure would stall a writer that waited for its reader
  // a copy on its own ArrayBuffer: the stream may read it later, and Deno's types take no SharedArrayBuffer view
  const writing = writer.write(new Uint8Array(data)).then(() => writer.close());
  writing.catch(() => undefined);
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      if (r.value !== undefined) {
        chunks.push(r.value);
        length += r.value.length;
      }
    }
    await writing;
  } catch (err) {
    await reader.cancel().catch(() => undefined);
    throw err;
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
