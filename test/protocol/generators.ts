/**
 * A small seeded generator of Jute values for property-style round trips: edge values on purpose (int32 limits,
 * longs beyond 2^53 and negative, null vs empty buffers/strings/vectors, non-ASCII BMP text), the rest random.
 */

import type { ACL, Id, MultiHeader, Stat } from '../../src/protocol/index.js';
import { Prng } from '../harness/prng.js';

export class Gen {
  private readonly rng: Prng;

  constructor(seed: number) {
    this.rng = new Prng(seed);
  }

  /** A float in [0, 1) from the tests' one seeded PRNG. */
  next(): number {
    return this.rng.float();
  }

  below(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  int(): number {
    if (this.chance(0.3)) return this.pick([0, 1, -1, 0x7fffffff, -0x80000000, 255, -256]);
    return (this.next() * 4294967296) | 0;
  }

  long(): bigint {
    if (this.chance(0.3)) {
      return this.pick([0n, 1n, -1n, (1n << 63n) - 1n, -(1n << 63n), (1n << 53n) + 1n, -((1n << 53n) + 1n), 0x0100_0013_bb72_0000n]);
    }
    const hi = BigInt((this.next() * 4294967296) >>> 0);
    const lo = BigInt((this.next() * 4294967296) >>> 0);
    return BigInt.asIntN(64, (hi << 32n) | lo);
  }

  bool(): boolean {
    return this.chance(0.5);
  }

  bytes(max = 40): Uint8Array {
    const n = this.chance(0.05) ? 300 + this.below(200) : this.below(max + 1);
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.below(256);
    return out;
  }

  buffer(): Uint8Array | null {
    if (this.chance(0.15)) return null;
    if (this.chance(0.15)) return new Uint8Array(0);
    return this.bytes();
  }

  /** A non-null string mixing ASCII, Latin-1, CJK and other BMP code points (no surrogates). */
  text(): string {
    const n = this.below(24);
    let s = '';
    for (let i = 0; i < n; i++) {
      const kind = this.below(5);
      if (kind === 0) s += this.pick(['/', 'a', 'Z', '0', '-', '_', ' ']);
      else if (kind === 1) s += String.fromCharCode(0x20 + this.below(0x5f));
      else if (kind === 2) s += String.fromCharCode(0xa0 + this.below(0x700)); // 2-byte UTF-8
      else if (kind === 3) s += String.fromCharCode(0x800 + this.below(0xd800 - 0x800)); // 3-byte, below surrogates
      else s += String.fromCharCode(0xe000 + this.below(0x10000 - 0xe000)); // 3-byte, above surrogates
    }
    return s;
  }

  string(): string | null {
    if (this.chance(0.15)) return null;
    if (this.chance(0.15)) return '';
    return this.text();
  }

  vector<T>(item: () => T): T[] | null {
    if (this.chance(0.15)) return null;
    if (this.chance(0.15)) return [];
    const n = 1 + this.below(6);
    return Array.from({ length: n }, item);
  }

  /** vector<ustring>: elements are never null (Jute readers turn a null element into ""). */
  stringVector(): string[] | null {
    return this.vector(() => (this.chance(0.1) ? '' : this.text()));
  }

  stat(): Stat {
    return {
      czxid: this.long(),
      mzxid: this.long(),
      ctime: this.long(),
      mtime: this.long(),
      version: this.int(),
      cversion: this.int(),
      aversion: this.int(),
      ephemeralOwner: this.long(),
      dataLength: this.int(),
      numChildren: this.int(),
      pzxid: this.long(),
    };
  }

  /** Both strings are non-null: the decoder reads a null scheme or id as "" (see decodeId). */
  id(): Id {
    return { scheme: this.chance(0.15) ? '' : this.text(), id: this.chance(0.15) ? '' : this.text() };
  }

  acl(): ACL {
    return { perms: this.int(), id: this.id() };
  }

  aclVector(): ACL[] | null {
    return this.vector(() => this.acl());
  }

  multiHeader(type: number): MultiHeader {
    return { type, done: false, err: this.int() };
  }
}
