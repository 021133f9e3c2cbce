/** The streaming FrameDecoder: golden streams in any split, corrupt and over-limit lengths. */

import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_FRAME_SIZE, FrameDecoder, hexEncode, JUTE_MAX_BUFFER, type FrameResult } from '../../src/protocol/index.js';
import { allGolden, isRoundTripFrame, type GoldenLine } from './golden.js';
import { Gen } from './generators.js';

/** One direction of one connection of one file: the frames and their concatenation. */
interface Stream {
  name: string;
  frames: string[];
  /** The frames with their length prefix. */
  wire: string[];
  bytes: Uint8Array;
}

function streams(): Stream[] {
  const groups = new Map<string, GoldenLine[]>();
  for (const g of allGolden().filter(isRoundTripFrame)) {
    const key = `${g.file} conn ${g.conn} ${g.dir}`;
    const list = groups.get(key) ?? [];
    list.push(g);
    groups.set(key, list);
  }
  return [...groups].map(([name, lines]) => {
    const total = lines.reduce((n, l) => n + l.bytes.length, 0);
    const bytes = new Uint8Array(total);
    let at = 0;
    for (const l of lines) {
      bytes.set(l.bytes, at);
      at += l.bytes.length;
    }
    return { name, frames: lines.map((l) => l.hex.slice(8)), wire: lines.map((l) => l.hex), bytes };
  });
}

/** Feeds `chunks` and collects every payload (as hex), checking need-more is the only other answer. */
function drain(d: FrameDecoder, chunks: Iterable<Uint8Array>): string[] {
  const out: string[] = [];
  for (const chunk of chunks) {
    d.push(chunk);
    for (;;) {
      const r = d.next();
      if (r.kind === 'frame') out.push(hexEncode(r.payload));
      else {
        expect(r.kind).toBe('need-more');
        break;
      }
    }
  }
  return out;
}

function* byteByByte(b: Uint8Array): Generator<Uint8Array> {
  for (let i = 0; i < b.length; i++) yield b.subarray(i, i + 1);
}

function* randomSplits(b: Uint8Array, g: Gen): Generator<Uint8Array> {
  let at = 0;
  while (at < b.length) {
    const n = g.chance(0.2) ? g.below(3) : 1 + g.below(200);
    // Copies, so a view returned for one frame cannot be confused with the caller's buffer.
    yield b.slice(at, at + n);
    at += n;
  }
}

const all = streams();

describe('FrameDecoder on golden streams', () => {
  it('has streams', () => {
    expect(all.length).toBeGreaterThan(50);
  });

  it.each(all.map((s) => [s.name, s] as const))('%s', (_name, s) => {
    const whole = new FrameDecoder();
    expect(drain(whole, [s.bytes])).toStrictEqual(s.frames);

    // keepPrefix: the same frames, each whole as it was on the wire.
    expect(drain(new FrameDecoder({ keepPrefix: true }), randomSplits(s.bytes, new Gen(s.bytes.length + 1)))).toStrictEqual(s.wire);
    expect(whole.buffered).toBe(0);

    const single = new FrameDecoder();
    expect(drain(single, byteByByte(s.bytes))).toStrictEqual(s.frames);
    expect(single.buffered).toBe(0);

    const g = new Gen(s.bytes.length);
    for (let round = 0; round < 5; round++) {
      const d = new FrameDecoder();
      expect(drain(d, randomSplits(s.bytes, g))).toStrictEqual(s.frames);
      expect(d.buffered).toBe(0);
    }
  });
});

function lengthPrefix(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setInt32(0, n);
  return b;
}

describe('FrameDecoder limits and errors', () => {
  it('reports a negative length as CORRUPT, and stays broken, holding the bytes from the bad prefix on', () => {
    const d = new FrameDecoder();
    d.push(new Uint8Array([0xff, 0xff, 0xff, 0xfe, 1, 2, 3]));
    const r = d.next();
    expect(r).toStrictEqual({ kind: 'error', error: { code: 'CORRUPT', message: 'negative frame length -2', length: -2 } });
    d.push(new Uint8Array([0, 0, 0, 0]));
    expect(d.next()).toStrictEqual(r);
    // Bytes pushed after the error are ignored; those before it are kept for drain().
    expect(d.buffered).toBe(7);
  });

  it('reports FRAME_TOO_LARGE as soon as the length prefix is complete, before the payload arrives', () => {
    const d = new FrameDecoder();
    const len = JUTE_MAX_BUFFER + 1;
    d.push(lengthPrefix(len).subarray(0, 3));
    expect(d.next()).toStrictEqual({ kind: 'need-more', needed: 1 });
    d.push(lengthPrefix(len).subarray(3));
    expect(d.next()).toStrictEqual({ kind: 'need-more', needed: len });
    const strict = new FrameDecoder({ maxFrameSize: JUTE_MAX_BUFFER });
    strict.push(lengthPrefix(len));
    const r = strict.next();
    expect(r.kind).toBe('error');
    expect(r.kind === 'error' && r.error.code).toBe('FRAME_TOO_LARGE');
    expect(r.kind === 'error' && r.error.length).toBe(len);
  });

  it('default maximum is jute.maxbuffer plus headroom', () => {
    expect(DEFAULT_MAX_FRAME_SIZE).toBeGreaterThan(JUTE_MAX_BUFFER);
    const d = new FrameDecoder();
    d.push(lengthPrefix(DEFAULT_MAX_FRAME_SIZE + 1));
    expect(d.next().kind).toBe('error');
    const ok = new FrameDecoder();
    ok.push(lengthPrefix(DEFAULT_MAX_FRAME_SIZE));
    expect(ok.next()).toStrictEqual({ kind: 'need-more', needed: DEFAULT_MAX_FRAME_SIZE });
  });

  it('accepts a frame exactly at a configured maximum and refuses one byte more', () => {
    const d = new FrameDecoder({ maxFrameSize: 10 });
    d.push(new Uint8Array([0, 0, 0, 10, ...new Array<number>(10).fill(7)]));
    const r: FrameResult = d.next();
    expect(r.kind).toBe('frame');
    d.push(lengthPrefix(11));
    expect(d.next()).toMatchObject({ kind: 'error', error: { code: 'FRAME_TOO_LARGE', length: 11 } });
  });

  it('handles empty payloads and empty pushes', () => {
    const d = new FrameDecoder();
    d.push(new Uint8Array(0));
    expect(d.next()).toStrictEqual({ kind: 'need-more', needed: 4 });
    d.push(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 1, 9]));
    expect(d.next()).toStrictEqual({ kind: 'frame', payload: new Uint8Array(0) });
    expect(d.next()).toStrictEqual({ kind: 'frame', payload: new Uint8Array([9]) });
    expect(d.next()).toStrictEqual({ kind: 'need-more', needed: 4 });
  });

  it('reassembles a large frame from many chunks', () => {
    const payload = new Uint8Array(300_000);
    for (let i = 0; i < payload.length; i++) payload[i] = (i * 31) & 0xff;
    const frame = new Uint8Array(4 + payload.length);
    frame.set(lengthPrefix(payload.length));
    frame.set(payload, 4);
    const d = new FrameDecoder();
    for (let at = 0; at < frame.length; at += 1000) {
      d.push(frame.subarray(at, at + 1000));
      if (at + 1000 < frame.length) expect(d.next().kind).toBe('need-more');
    }
    const r = d.next();
    expect(r.kind).toBe('frame');
    const got = r.kind === 'frame' ? r.payload : new Uint8Array(0);
    expect(got.length).toBe(payload.length);
    // A plain loop: a deep equality over 300 kB is needlessly slow.
    let same = true;
    for (let i = 0; i < payload.length; i++) if (got[i] !== payload[i]) same = false;
    expect(same).toBe(true);
  });
});

describe('FrameDecoder keepPrefix and drain', () => {
  const frame = new Uint8Array([0, 0, 0, 3, 7, 8, 9]);

  it('keepPrefix returns a frame inside one chunk as a view of it, and one across chunks as a copy', () => {
    const chunk = new Uint8Array([...frame, 0, 0]);
    const d = new FrameDecoder({ keepPrefix: true });
    d.push(chunk);
    const r = d.next();
    expect(r).toStrictEqual({ kind: 'frame', payload: frame });
    expect(r.kind === 'frame' && r.payload.buffer).toBe(chunk.buffer);
    d.push(new Uint8Array([0, 1, 5]));
    const split = d.next();
    expect(split).toStrictEqual({ kind: 'frame', payload: new Uint8Array([0, 0, 0, 1, 5]) });
    expect(split.kind === 'frame' && split.payload.buffer).not.toBe(chunk.buffer);
  });

  it('drain() hands back an incomplete frame split over chunks, as a copy, and empties the decoder', () => {
    const d = new FrameDecoder();
    const a = frame.slice(0, 2);
    const b = frame.slice(2, 5);
    d.push(a);
    d.push(b);
    expect(d.next()).toStrictEqual({ kind: 'need-more', needed: 2 });
    const held = d.drain();
    a.fill(0);
    b.fill(0);
    expect(held).toStrictEqual(frame.subarray(0, 5));
    expect(d.buffered).toBe(0);
    expect(d.next()).toStrictEqual({ kind: 'need-more', needed: 4 });
    expect(d.drain()).toStrictEqual(new Uint8Array(0));
  });

  it('drain() after a frame was cut out hands back only the rest, copied out of the chunk', () => {
    const chunk = new Uint8Array([...frame, 0, 0, 0]);
    const d = new FrameDecoder();
    d.push(chunk);
    expect(d.next()).toStrictEqual({ kind: 'frame', payload: new Uint8Array([7, 8, 9]) });
    const held = d.drain();
    expect(held).toStrictEqual(new Uint8Array([0, 0, 0]));
    expect(held.buffer).not.toBe(chunk.buffer);
  });

  it('drain() copies out of a Node Buffer too (whose slice() is a view, not a copy)', () => {
    const chunk = Buffer.from([0, 0, 0, 9, 1, 2]);
    const d = new FrameDecoder();
    d.push(chunk);
    const held = d.drain();
    chunk.fill(0);
    expect(held).toStrictEqual(new Uint8Array([0, 0, 0, 9, 1, 2]));
  });

  it('drain() after an error hands back the bytes from the bad prefix on and lets the decoder start over', () => {
    const d = new FrameDecoder({ maxFrameSize: 10 });
    d.push(new Uint8Array([...frame, 0, 0]));
    d.push(new Uint8Array([0, 99, 1]));
    expect(d.next().kind).toBe('frame');
    expect(d.next()).toMatchObject({ kind: 'error', error: { code: 'FRAME_TOO_LARGE', length: 99 } });
    expect(d.drain()).toStrictEqual(new Uint8Array([0, 0, 0, 99, 1]));
    expect(d.buffered).toBe(0);
    d.push(frame);
    expect(d.next()).toStrictEqual({ kind: 'frame', payload: new Uint8Array([7, 8, 9]) });
  });
});
