/**
 * Byte-level mutations of valid frames. Each one models a way a hostile or broken peer can lie: flipped bits,
 * bytes inserted or dropped, length fields (the frame prefix or any Jute length inside) replaced by boundary
 * values, truncation, and splicing the head of one frame onto the tail of another. Mutations stack, so a
 * mutated frame can carry several lies at once.
 */

import type { Prng } from '../../harness/prng.js';

/** Integers that sit on the edges decoders get wrong: null length, sign bit, off-by-one around what is left. */
function interestingInt(rng: Prng, remaining: number): number {
  const values = [
    -1, -2, 0, 1, 2, 3, 4, 7, 8, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x10000, 0xfffff, 0x100000, 0x10ffff,
    0x7ffffffe, 0x7fffffff, -0x80000000, -0x7fffffff, remaining - 1, remaining, remaining + 1, remaining * 2,
  ];
  return rng.pick(values) | 0;
}

function writeInt32(b: Uint8Array, at: number, v: number): void {
  b[at] = (v >>> 24) & 0xff;
  b[at + 1] = (v >>> 16) & 0xff;
  b[at + 2] = (v >>> 8) & 0xff;
  b[at + 3] = v & 0xff;
}

export type MutationName =
  | 'bit-flip'
  | 'byte-set'
  | 'insert'
  | 'delete'
  | 'int-lie'
  | 'prefix-lie'
  | 'truncate'
  | 'splice'
  | 'duplicate'
  | 'random';

export const MUTATIONS: readonly MutationName[] = [
  'bit-flip',
  'byte-set',
  'insert',
  'delete',
  'int-lie',
  'prefix-lie',
  'truncate',
  'splice',
  'duplicate',
  'random',
];

/**
 * One mutation of `input` (never modified; a new array comes back). `frame` says the input starts with a 4-byte
 * length prefix, so `prefix-lie` rewrites it; `donors` are other valid inputs for splicing.
 */
export function mutateOnce(rng: Prng, input: Uint8Array, name: MutationName, donors: readonly Uint8Array[], frame: boolean): Uint8Array {
  const b = input.slice();
  switch (name) {
    case 'bit-flip': {
      if (b.length === 0) return rng.bytes(1);
      const n = rng.range(1, 4);
      for (let i = 0; i < n; i++) {
        const at = rng.int(b.length);
        b[at] = b[at]! ^ (1 << rng.int(8));
      }
      return b;
    }
    case 'byte-set': {
      if (b.length === 0) return new Uint8Array([rng.pick([0, 0xff, 0x7f, 0x80])]);
      b[rng.int(b.length)] = rng.pick([0, 1, 0x7f, 0x80, 0xfe, 0xff, rng.u32() & 0xff]);
      return b;
    }
    case 'insert': {
      const at = rng.int(b.length + 1);
      const extra = rng.bytes(rng.size(64));
      const out = new Uint8Array(b.length + extra.length);
      out.set(b.subarray(0, at));
      out.set(extra, at);
      out.set(b.subarray(at), at + extra.length);
      return out;
    }
    case 'delete': {
      if (b.length === 0) return b;
      const at = rng.int(b.length);
      const n = Math.min(b.length - at, rng.range(1, 16));
      const out = new Uint8Array(b.length - n);
      out.set(b.subarray(0, at));
      out.set(b.subarray(at + n), at);
      return out;
    }
    case 'int-lie': {
      if (b.length < 4) return b;
      // Jute fields are 4-byte aligned in most records; unaligned positions catch the rest.
      const aligned = rng.chance(0.7);
      const at = aligned ? 4 * rng.int(Math.floor(b.length / 4)) : rng.int(b.length - 3);
      writeInt32(b, at, interestingInt(rng, b.length - at - 4));
      return b;
    }
    case 'prefix-lie': {
      if (!frame || b.length < 4) return mutateOnce(rng, input, 'int-lie', donors, frame);
      writeInt32(b, 0, interestingInt(rng, b.length - 4));
      return b;
    }
    case 'truncate':
      return b.subarray(0, rng.int(b.length + 1)).slice();
    case 'splice': {
      if (donors.length === 0) return b;
      const other = rng.pick(donors);
      const cutA = rng.int(b.length + 1);
      const cutB = rng.int(other.length + 1);
      const out = new Uint8Array(cutA + other.length - cutB);
      out.set(b.subarray(0, cutA));
      out.set(other.subarray(cutB), cutA);
      return out;
    }
    case 'duplicate': {
      if (b.length === 0) return b;
      const at = rng.int(b.length);
      const n = Math.min(b.length - at, rng.range(1, 32));
      const out = new Uint8Array(b.length + n);
      out.set(b.subarray(0, at + n));
      out.set(b.subarray(at, at + n), at + n);
      out.set(b.subarray(at + n), at + 2 * n);
      return out;
    }
    case 'random':
      return rng.bytes(rng.size(512));
  }
}

/** One to four stacked mutations; returns the bytes and the mutation names (for the failure report). */
export function mutate(
  rng: Prng,
  input: Uint8Array,
  donors: readonly Uint8Array[],
  frame: boolean,
): { bytes: Uint8Array; applied: MutationName[] } {
  let bytes = input;
  const applied: MutationName[] = [];
  const n = rng.chance(0.6) ? 1 : rng.range(2, 4);
  for (let i = 0; i < n; i++) {
    // Whole-random replaces everything, so it only makes sense alone.
    const name = rng.pick(MUTATIONS.filter((m) => m !== 'random' || n === 1));
    bytes = mutateOnce(rng, bytes, name, donors, frame);
    applied.push(name);
  }
  return { bytes, applied };
}

/** Sets the 4-byte length prefix of a frame to match its payload (so a mutated body reaches the record decoders). */
export function fixPrefix(frame: Uint8Array): Uint8Array {
  if (frame.length < 4) return frame;
  const out = frame.slice();
  writeInt32(out, 0, out.length - 4);
  return out;
}

/** Splits bytes into random chunks (a TCP stream may cut anywhere, down to single bytes). */
export function randomSplits(rng: Prng, bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  const oneByOne = rng.chance(0.1);
  let at = 0;
  while (at < bytes.length) {
    const n = oneByOne ? 1 : Math.max(1, rng.size(bytes.length - at));
    out.push(bytes.subarray(at, at + n));
    at += n;
  }
  return out;
}
