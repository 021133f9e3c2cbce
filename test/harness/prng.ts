/**
 * The one seeded PRNG of the tests (sfc32, seeded through splitmix32): the fuzzers, the chaos run and the codec's
 * property tests draw from it, so each is a pure function of its seed — a fuzz failure reported as (seed, target,
 * input index) or a chaos schedule replays exactly. Math.random is never used for a decision.
 */

/** splitmix32 step: spreads a 32-bit seed into well-mixed words for sfc32's state. */
function splitmix32(state: { s: number }): number {
  state.s = (state.s + 0x9e3779b9) | 0;
  let z = state.s;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** Mixes several numbers (seed, target id, input index) into one 32-bit seed. */
export function mixSeed(...parts: number[]): number {
  const state = { s: 0x2545f491 };
  let h = 0;
  for (const p of parts) {
    state.s ^= Math.imul(p | 0, 0x27d4eb2d) ^ Math.floor(p / 2 ** 32);
    h = (h ^ splitmix32(state)) >>> 0;
  }
  return h;
}

export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    const st = { s: seed | 0 };
    this.a = splitmix32(st);
    this.b = splitmix32(st);
    this.c = splitmix32(st);
    this.d = splitmix32(st);
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** A uniform 32-bit unsigned integer. */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  float(): number {
    return this.u32() / 2 ** 32;
  }

  /** An integer in [0, n) (n ≥ 1). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** An integer in [lo, hi] inclusive. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(items.length)]!;
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.u32() & 0xff;
    return out;
  }

  /** A new array with the items in a random order (Fisher–Yates). */
  shuffled<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }

  /** An independent generator for a named part of a run (a worker, a fault lane), stable for a given seed. */
  fork(label: string): Prng {
    let h = this.u32();
    for (let i = 0; i < label.length; i++) h = mixSeed(h, label.charCodeAt(i));
    return new Prng(h);
  }

  /** Small sizes most of the time, now and then a large one: the shape real bugs like. */
  size(max: number): number {
    const r = this.float();
    if (r < 0.6) return this.int(Math.min(max, 16) + 1);
    if (r < 0.9) return this.int(Math.min(max, 256) + 1);
    return this.int(max + 1);
  }
}
