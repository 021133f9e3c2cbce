/**
 * Lowercase hex without Buffer: the golden files, the describer and the decode tool all speak hex, and the
 * protocol layer must not depend on Node.
 */

const DIGITS = '0123456789abcdef';

/** Lowercase hex of `bytes[start, end)`. */
export function hexEncode(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let out = '';
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    out += DIGITS[b >> 4]! + DIGITS[b & 15]!;
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
