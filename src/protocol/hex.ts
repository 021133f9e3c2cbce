/**
 * Lowercase hex without Buffer: the golden files, the describer and the decode tool all speak hex, and the
 * protocol layer must not depend on Node.
 */

const DIGITS = '0123456789abcdef';

/** Both digit character codes of every byte value, and a scratch row of codes for long inputs. */
const PAIRS = new Uint16Array(512);
for (let b = 0; b < 256; b++) {
  PAIRS[2 * b] = DIGITS.charCodeAt(b >> 4);
  PAIRS[2 * b + 1] = DIGITS.charCodeAt(b & 15);
}
const ROW = 4096;
const SCRATCH = new Uint16Array(2 * ROW);

/** Lowercase hex of `bytes[start, end)`. */
export function hexEncode(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let out = '';
  if (end - start <= 16) {
    for (let i = start; i < end; i++) {
      const b = bytes[i]!;
      out += DIGITS[b >> 4]! + DIGITS[b & 15]!;
    }
    return out;
  }
  // Node data of kilobytes (decode prints every byte): character codes in rows, one string per row, instead of a
  // string concatenation per byte.
  for (let i = start; i < end; i += ROW) {
    const n = Math.min(ROW, end - i);
    for (let j = 0; j < n; j++) {
      const b = bytes[i + j]!;
      SCRATCH[2 * j] = PAIRS[2 * b]!;
      SCRATCH[2 * j + 1] = PAIRS[2 * b + 1]!;
    }
    out += String.fromCharCode.apply(null, SCRATCH.subarray(0, 2 * n) as unknown as number[]);
  }
  return out;
}

function nibble(c: number): number {
  if (c >= 48 && c <= 57) return c - 48; // 0-9
  if (c >= 97 && c <= 102) return c - 87; // a-f
  if (c >= 65 && c <= 70) return c - 55; // A-F
  return -1;
}

/** Parses hex (either case, no separators). Returns null for odd length or a non-hex character. */
export function hexDecode(hex: string): Uint8Array | null {
  if (hex.length % 2 !== 0) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = nibble(hex.charCodeAt(2 * i));
    const lo = nibble(hex.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) return null;
    out[i] = (hi << 4) | lo;
  }
  return out;
}
