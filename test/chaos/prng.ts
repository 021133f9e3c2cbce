/**
 * A seeded pseudo-random generator (mulberry32) for the chaos run. Everything the run decides at random (the
 * fault schedule, each worker's choice of lock and hold time) draws from generators derived from the one --seed,
 * so a failing run can be replayed with the same schedule. Math.random is never used for a decision.
 */

export class Prng {
  private state: number;

  constructor(seed: number) {
    // Mix the seed once so nearby seeds (7, 8) do not start with nearby streams.
    this.state = mix32(seed >>> 0);
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max] (both inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** A new array with the items in a random order (Fisher–Yates). */
  shuffled<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }

  /** An independent generator for a named part of the run (a worker, a fault lane), stable for a given seed. */
  fork(label: string): Prng {
    let h = this.state;
    for (let i = 0; i < label.length; i++) h = mix32(h ^ label.charCodeAt(i));
    return new Prng(h);
  }
}

function mix32(x: number): number {
  let z = (x + 0x9e3779b9) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}
