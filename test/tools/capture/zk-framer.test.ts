/**
 * The capture framer on its own: frames out of deliveries that are views of a capture buffer which moves on after
 * each call, what it reports when a stream ends inside a frame, and the resynchronisation after a bad length prefix.
 */

import { describe, expect, it } from 'vitest';
import { concatBytes } from '../../../src/protocol/bytes.js';
import { hexEncode } from '../../../src/protocol/index.js';
import { looksLikeRequestHead, REQUEST_HEAD_BYTES } from '../../../src/tools/capture/frame-shape.js';
import { ZkFramer, type FrameSink } from '../../../src/tools/capture/zk-framer.js';

/** A getData-shaped request frame: length, xid, opcode 4, then `body` bytes. */
function request(xid: number, body: number): Uint8Array {
  const b = new Uint8Array(12 + body);
  const v = new DataView(b.buffer);
  v.setInt32(0, 8 + body);
  v.setInt32(4, xid);
  v.setInt32(8, 4);
  for (let i = 0; i < body; i++) b[12 + i] = (xid * 7 + i) & 0xff;
  return b;
}

const hex = (b: Uint8Array): string => hexEncode(b);

interface Seen {
  frames: string[];
  skipped: string[];
}

/** A framer over requests; frames are copied (as hex) inside the callback, the only time they are valid. */
function framer(startInside = false, maxFrameSize?: number): { f: ZkFramer; seen: Seen } {
  const seen: Seen = { frames: [], skipped: [] };
  const sink: FrameSink = {
    frame: (bytes) => seen.frames.push(hex(bytes)),
    skipped: (n, reason) => seen.skipped.push(`${n}: ${reason}`),
  };
  return { f: new ZkFramer(sink, REQUEST_HEAD_BYTES, looksLikeRequestHead, startInside, maxFrameSize), seen };
}

/**
 * Delivers `stream` in pieces of the given sizes (cycled), each through one scratch buffer overwritten after the call.
 * A Node Buffer, as the capture readers get from files and pipes (its slice() is a view, not a copy).
 */
function deliver(f: ZkFramer, stream: Uint8Array, sizes: number[]): void {
  const scratch = Buffer.alloc(stream.length);
  for (let at = 0, i = 0; at < stream.length; i++) {
    const n = Math.min(sizes[i % sizes.length]!, stream.length - at);
    scratch.set(stream.subarray(at, at + n));
    f.data(scratch.subarray(0, n), 0);
    scratch.fill(0xee);
    at += n;
  }
}

const frames = [request(1, 0), request(2, 5), request(3, 3000), request(4, 17), request(5, 1)];
const stream = concatBytes(frames);

describe('ZkFramer', () => {
  it('gives every frame whole, however the deliveries cut it, though each delivery is overwritten after the call', () => {
    const splits = [[1], [2, 3], [5, 1, 7], [stream.length], [13, 1460], [4000, 3]];
    for (let seed = 1; seed <= 10; seed++) splits.push(Array.from({ length: 6 }, (_, i) => ((seed * 37 + i * 101) % 700) + 1));
    for (const sizes of splits) {
      const { f, seen } = framer();
      deliver(f, stream, sizes);
      expect(seen.frames).toStrictEqual(frames.map(hex));
      expect(seen.skipped).toStrictEqual([]);
      expect(f.buffered).toBe(0);
    }
  });

  it('reports a stream that ends inside a frame, with the frame size once the length prefix was seen', () => {
    const a = framer();
    deliver(a.f, stream.subarray(0, 12 + 17 + 100), [7]);
    a.f.finish(0);
    expect(a.seen.frames).toStrictEqual([frames[0]!, frames[1]!].map(hex));
    expect(a.seen.skipped).toStrictEqual([`100: the stream ended inside a frame (100 of ${frames[2]!.length} byte(s) seen)`]);
  });

  it('reports the size of a frame cut off after its length prefix, and a prefix cut in two', () => {
    const big = framer();
    deliver(big.f, frames[2]!.subarray(0, 1000), [300]);
    expect(big.f.buffered).toBe(1000);
    big.f.finish(0);
    expect(big.seen.skipped).toStrictEqual([`1000: the stream ended inside a frame (1000 of ${frames[2]!.length} byte(s) seen)`]);
    const prefix = framer();
    deliver(prefix.f, frames[1]!.subarray(0, 3), [1]);
    prefix.f.finish(0);
    expect(prefix.seen.skipped).toStrictEqual(['3: the stream ended inside a frame (3 byte(s) seen)']);
  });

  it('after a bad length prefix, skips to the next plausible frame and says how much it skipped', () => {
    const { f, seen } = framer(false, 4096);
    const garbage = Uint8Array.from([0x7f, 0, 0, 0, 1, 2, 3]);
    deliver(f, concatBytes([frames[0]!, garbage, frames[1]!, frames[3]!]), [5]);
    expect(seen.frames).toStrictEqual([frames[0]!, frames[1]!, frames[3]!].map(hex));
    expect(seen.skipped).toStrictEqual([`${garbage.length}: bad length prefix ${0x7f000000}`]);
  });

  it('a gap drops the frame it cut and framing resumes at the next frame start', () => {
    const { f, seen } = framer();
    deliver(f, concatBytes([frames[0]!, frames[2]!.subarray(0, 50)]), [20]);
    f.gap(0);
    deliver(f, concatBytes([frames[2]!.subarray(2000), frames[3]!]), [64]);
    expect(seen.frames).toStrictEqual([frames[0]!, frames[3]!].map(hex));
    expect(seen.skipped).toStrictEqual([
      '50: a frame cut by the gap',
      `${frames[2]!.length - 2000}: resynchronising after the gap`,
    ]);
  });

  it('finds a frame start that a delivery boundary cuts while it resynchronises', () => {
    const { f, seen } = framer();
    f.gap(0);
    const tail = frames[2]!.subarray(2000);
    // The next frame's length prefix begins two bytes before the end of the first delivery.
    deliver(f, concatBytes([tail, frames[3]!, frames[4]!]), [tail.length + 2, 5]);
    expect(seen.frames).toStrictEqual([frames[3]!, frames[4]!].map(hex));
    expect(seen.skipped).toStrictEqual([`${tail.length}: resynchronising after the gap`]);
  });
});
