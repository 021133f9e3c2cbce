/**
 * Decompression for snapshots written with zookeeper.snapshot.compression.method=gz (`snapshot.<zxid>.gz`), through
 * the platform's DecompressionStream (Node 18+, Deno, Bun, browsers, workerd): no dependency, still streaming.
 * Snappy (`.snappy`) has no platform decoder; it is refused with UNSUPPORTED_COMPRESSION (see snapshotCompression).
 */

import { DataFileError } from './errors.js';
import { isSnappyStream } from './file-header.js';

export type SnapshotCompression = 'none' | 'gzip' | 'snappy';

/** How a snapshot is compressed, from its first bytes (the file name's .gz/.snappy says the same, but may be lost). */
export function snapshotCompression(first: Uint8Array): SnapshotCompression {
  if (first.length >= 2 && first[0] === 0x1f && first[1] === 0x8b) return 'gzip';
  if (isSnappyStream(first)) return 'snappy';
  return 'none';
}

/** The typed refusal for a snappy snapshot. */
export function snappyUnsupported(): DataFileError {
  return new DataFileError(
    'UNSUPPORTED_COMPRESSION',
    'snappy-compressed snapshot (zookeeper.snapshot.compression.method=snappy): zkwire decodes uncompressed and gzip snapshots only',
    0,
  );
}

/** The decompressed bytes of a gzip stream, chunk by chunk. A damaged stream rejects with CORRUPT_SNAPSHOT. */
export async function* gunzip(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const stream = new DecompressionStream('gzip');
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  // Written and read concurrently: the stream's backpressure would stall a writer that waited for its reader.
  const pump = (async (): Promise<void> => {
    try {
      for await (const chunk of chunks) await writer.write(chunk);
      await writer.close();
    } catch (e) {
      await writer.abort(e).catch(() => {});
    }
  })();
  try {
    for (;;) {
      let r: { done: boolean; value?: Uint8Array | undefined };
      try {
        r = await reader.read();
      } catch (e) {
        throw new DataFileError('CORRUPT_SNAPSHOT', `gzip: ${e instanceof Error ? e.message : String(e)}`, undefined);
      }
      if (r.done) break;
      if (r.value !== undefined) yield r.value;
    }
  } finally {
    await reader.cancel().catch(() => {});
    await pump;
  }
}
