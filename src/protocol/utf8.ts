/**
 * UTF-8 without TextEncoder/TextDecoder: the protocol layer must run where only ES2022 is promised, and
 * ZooKeeper strings (paths, schemes, ids) are short, where a plain loop beats the native codec's call cost.
 *
 * Encoding follows the standard (a lone surrogate becomes U+FFFD, as TextEncoder does). Java writes
 * non-BMP characters as CESU-8 surrogate pairs, but those are illegal in paths and rare elsewhere.
 * Decoding is lenient: malformed sequences become U+FFFD, like TextDecoder's default.
 */

/** An upper bound on the encoded size, cheap enough to call before every write. */
export function utf8MaxBytes(s: string): number {
  return s.length * 3;
}

/** Encodes `s` into `out` at `at`; returns the number of bytes written. `out` must have utf8MaxBytes(s) room. */
export function utf8EncodeInto(s: string, out: Uint8Array, at: number): number {
  let p = at;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out[p++] = c;
    } else if (c < 0x800) {
      out[p++] = 0xc0 | (c >> 6);
      out[p++] = 0x80 | (c & 0x3f);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const next = i + 1 < n ? s.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        i++;
        out[p++] = 0xf0 | (c >> 18);
        out[p++] = 0x80 | ((c >> 12) & 0x3f);
        out[p++] = 0x80 | ((c >> 6) & 0x3f);
        out[p++] = 0x80 | (c & 0x3f);
      } else {
        out[p++] = 0xef;
        out[p++] = 0xbf;
        out[p++] = 0xbd;
      }
    } else {
      out[p++] = 0xe0 | (c >> 12);
      out[p++] = 0x80 | ((c >> 6) & 0x3f);
      out[p++] = 0x80 | (c & 0x3f);
    }
  }
  return p - at;
}

export function utf8Encode(s: string): Uint8Array {
  const tmp = new Uint8Array(utf8MaxBytes(s));
  return tmp.slice(0, utf8EncodeInto(s, tmp, 0));
}

const REPLACEMENT = 0xfffd;

/** Decodes bytes[start, end). Malformed input yields U+FFFD per maximal subpart, never throws. */
export function utf8Decode(bytes: Uint8Array, start = 0, end = bytes.length): string {
  // Nearly every ZooKeeper string (paths, child names, schemes) is ASCII: check that first and build the
  // string from the byte codes directly, in slices small enough for the argument-count limit.
  let ascii = true;
  for (let i = start; i < end; i++) {
    if (bytes[i]! >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return asciiDecode(bytes, start, end);
  let out = '';
  let units: number[] = [];
  let i = start;
  while (i < end) {
    const b = bytes[i]!;
    let cp = REPLACEMENT;
    let size = 1;
    if (b < 0x80) {
      cp = b;
    } else if (b >= 0xc2 && b <= 0xdf) {
      const b1 = i + 1 < end ? bytes[i + 1]! : 0;
      if ((b1 & 0xc0) === 0x80) {
        cp = ((b & 0x1f) << 6) | (b1 & 0x3f);
        size = 2;
      }
    } else if (b >= 0xe0 && b <= 0xef) {
      const b1 = i + 1 < end ? bytes[i + 1]! : 0;
      const lo = b === 0xe0 ? 0xa0 : 0x80;
      const hi = b === 0xed ? 0x9f : 0xbf;
      if (b1 >= lo && b1 <= hi) {
        const b2 = i + 2 < end ? bytes[i + 2]! : 0;
        if ((b2 & 0xc0) === 0x80) {
          cp = ((b & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f);
          size = 3;
        } else size = 2;
      }
    } else if (b >= 0xf0 && b <= 0xf4) {
      const b1 = i + 1 < end ? bytes[i + 1]! : 0;
      const lo = b === 0xf0 ? 0x90 : 0x80;
      const hi = b === 0xf4 ? 0x8f : 0xbf;
      if (b1 >= lo && b1 <= hi) {
        const b2 = i + 2 < end ? bytes[i + 2]! : 0;
        if ((b2 & 0xc0) === 0x80) {
          const b3 = i + 3 < end ? bytes[i + 3]! : 0;
          if ((b3 & 0xc0) === 0x80) {
            cp = ((b & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f);
            size = 4;
          } else size = 3;
        } else size = 2;
      }
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      units.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
    } else {
      units.push(cp);
    }
    i += size;
    if (units.length >= 4096) {
      out += String.fromCharCode(...units);
      units = [];
    }
  }
  return out + String.fromCharCode(...units);
}

const SLICE = 4096;

function asciiDecode(bytes: Uint8Array, start: number, end: number): string {
  if (end - start <= SLICE) return String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
  let out = '';
  for (let i = start; i < end; i += SLICE) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(end, i + SLICE)) as unknown as number[]);
  }
  return out;
}

/** True when bytes[start, end) is well-formed UTF-8 (used to decide whether a buffer can be shown as text). */
export function isValidUtf8(bytes: Uint8Array, start = 0, end = bytes.length): boolean {
  const s = utf8Decode(bytes, start, end);
  if (s.indexOf('\ufffd') === -1) return true;
  // U+FFFD can be genuine (EF BF BD); fall back to a re-encode comparison.
  const re = utf8Encode(s);
  if (re.length !== end - start) return false;
  for (let i = 0; i < re.length; i++) if (re[i] !== bytes[start + i]) return false;
  return true;
}
