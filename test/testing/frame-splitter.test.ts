import { describe, expect, it } from 'vitest';
import { ConnectionSplitter, FrameSplitter, type Piece } from '../../src/testing/frame-splitter.js';
import { concatBytes } from '../../src/protocol/bytes.js';

function frame(xid: number, type: number, extra: number[] = []): Uint8Array {
  const bytes = new Uint8Array(12 + extra.length);
  const view = new DataView(bytes.buffer);
  view.setInt32(0, 8 + extra.length);
  view.setInt32(4, xid);
  view.setInt32(8, type);
  bytes.set(extra, 12);
  return bytes;
}


/** Feeds `stream` cut at the given chunk sizes (cycled) and returns every piece. */
function feed(splitter: FrameSplitter, stream: Uint8Array, sizes: number[]): Piece[] {
  const pieces: Piece[] = [];
  for (let at = 0, i = 0; at < stream.length; i++) {
    const size = sizes[i % sizes.length] ?? 1;
    pieces.push(...splitter.push(stream.subarray(at, at + size)));
    at += size;
  }
  return pieces;
}

const frames = [frame(1, 3, [0, 0, 0, 1, 0x2f, 0]), frame(-2, 11), frame(7, 4, Array.from({ length: 300 }, (_, i) => i & 0xff))];
const stream = concatBytes(frames);

describe('FrameSplitter', () => {
  it('returns the same whole frames, byte for byte, however the stream is split', () => {
    const splits = [[1], [2, 3], [5, 1, 7], [stream.length], [11, 13, 4096]];
    for (let seed = 1; seed <= 20; seed++) splits.push(Array.from({ length: 8 }, (_, i) => ((seed * 31 + i * 17) % 40) + 1));
    for (const sizes of splits) {
      const pieces = feed(new FrameSplitter(0xfffff), stream, sizes);
      expect(pieces.map((p) => p.kind)).toEqual(['frame', 'frame', 'frame']);
      expect(pieces.map((p) => Array.from(p.bytes))).toEqual(frames.map((f) => Array.from(f)));
      expect(pieces.map((p) => (p.kind === 'frame' ? [p.xid, p.type] : null))).toEqual([
        [1, 3],
        [-2, 11],
        [7, 4],
      ]);
    }
  });

  it('holds an incomplete frame until its last byte arrives', () => {
    const splitter = new FrameSplitter(0xfffff);
    const [first] = frames;
    if (first === undefined) throw new Error('no frame');
    expect(splitter.push(first.subarray(0, first.length - 1))).toEqual([]);
    expect(splitter.buffered).toBe(first.length - 1);
    expect(splitter.push(first.subarray(first.length - 1)).map((p) => p.kind)).toEqual(['frame']);
    expect(splitter.buffered).toBe(0);
  });

  it('switches to raw pass-through for a four-letter word, a negative or an over-limit length', () => {
    for (const start of [
      Uint8Array.from('ruok', (c) => c.charCodeAt(0)),
      Uint8Array.from([0xff, 0xff, 0xff, 0xfe, 1]),
      Uint8Array.from([0x00, 0x10, 0x00, 0x00, 1, 2]),
    ]) {
      const splitter = new FrameSplitter(0xfffff);
      const pieces = [...splitter.push(start), ...splitter.push(Uint8Array.from([9, 9]))];
      expect(splitter.raw).toBe(true);
      expect(pieces.every((p) => p.kind === 'raw')).toBe(true);
      expect(concatBytes(pieces.map((p) => p.bytes))).toEqual(concatBytes([start, Uint8Array.from([9, 9])]));
    }
  });

  it('hands out copies, not views of the caller buffer', () => {
    const input = stream.slice();
    const [piece] = new FrameSplitter(0xfffff).push(input);
    input.fill(0);
    expect(Array.from(piece?.bytes ?? [])).toEqual(Array.from(frames[0] ?? []));
  });

  it('copies out of a Node Buffer (a view into a shared pool, whose slice() does not copy) and peeks xid and type from the copy', () => {
    const input = Buffer.concat([Buffer.alloc(5, 0xaa), stream]).subarray(5);
    const pieces = new FrameSplitter(0xfffff).push(input);
    input.fill(0);
    expect(pieces.map((p) => Array.from(p.bytes))).toEqual(frames.map((f) => Array.from(f)));
    expect(pieces.map((p) => (p.kind === 'frame' ? [p.xid, p.type] : null))).toEqual([
      [1, 3],
      [-2, 11],
      [7, 4],
    ]);
  });
});

describe('ConnectionSplitter', () => {
  const text = (t: string): Uint8Array => Uint8Array.from(t, (c) => c.charCodeAt(0));

  it("turns the server's side raw when the client opens with a four-letter word, and gives back what it held", () => {
    const splitter = new ConnectionSplitter({ c2s: 0xfffff, s2c: 64 * 1024 * 1024 });
    // Three answer bytes arrive first: framed, they would wait for a fourth.
    expect(splitter.push('s2c', Uint8Array.from([0, 0, 0]))).toEqual({ c2s: [], s2c: [] });
    const opened = splitter.push('c2s', text('ruok'));
    expect(opened.c2s).toEqual([expect.objectContaining({ kind: 'raw', bytes: text('ruok') })]);
    expect(opened.s2c).toEqual([{ kind: 'raw', bytes: Uint8Array.from([0, 0, 0]) }]);
    expect(splitter.push('s2c', text('imok')).s2c).toEqual([{ kind: 'raw', bytes: text('imok') }]);
    expect(splitter.takeHeld('s2c')).toEqual(new Uint8Array(0));
  });

  it('keeps both sides framed when the client opens with a frame, and gives back an incomplete one at the end', () => {
    const splitter = new ConnectionSplitter({ c2s: 0xfffff, s2c: 0xfffff });
    expect(splitter.push('c2s', stream).c2s.map((p) => p.kind)).toEqual(['frame', 'frame', 'frame']);
    const [reply] = frames;
    expect(splitter.push('s2c', reply!.subarray(0, 5))).toEqual({ c2s: [], s2c: [] });
    expect(splitter.push('c2s', text('ruok')).c2s).toEqual([expect.objectContaining({ kind: 'raw' })]);
    expect(Array.from(splitter.takeHeld('s2c'))).toEqual(Array.from(reply!.subarray(0, 5)));
  });
});
