/**
 * Adler-32 (RFC 1950), the checksum ZooKeeper puts before every transaction log entry and at the seals of a snapshot
 * (java.util.zip.Adler32). Incremental, because a snapshot's checksum runs over everything read so far.
 */

const MOD = 65521;
// The most bytes that can be summed before `b` may overflow 2^53 is far larger, but 5552 keeps both sums inside
// 32 bits (zlib's NMAX), so the modulo can be taken once per block rather than per byte.
const NMAX = 5552;

export class Adler32 {
  #a = 1;
  #b = 0;

  /** Adds bytes[start, end) to the sum. */
  update(bytes: Uint8Array, start = 0, end = bytes.length): this {
    let a = this.#a;
    let b = this.#b;
    let i = start;
    while (i < end) {
      const stop = Math.min(end, i + NMAX);
      for (; i < stop; i++) {
        a += bytes[i]!;
        b += a;
      }
      a %= MOD;
      b %= MOD;
    }
    this.#a = a;
    this.#b = b;
    return this;
  }

  /** The checksum of everything added so far, as an unsigned 32-bit number. */
  get value(): number {
    return ((this.#b << 16) | this.#a) >>> 0;
  }
}

/** The Adler-32 of bytes[start, end). */
export function adler32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  return new Adler32().update(bytes, start, end).value;
}
