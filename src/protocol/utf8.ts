/**
 * UTF-8 for Jute strings: plain loops for ASCII, the platform's TextEncoder/TextDecoder for anything else.
 *
 * ZooKeeper strings (paths, schemes, ids) are short and almost always ASCII, where a loop beats the native codec's
 * call cost; a string with any other character goes through the WHATWG codec, which every runtime zkwire targets has
 * (src/types/web-globals.d.ts). Encoding follows the standard: a lone surrogate becomes U+FFFD. Java writes non-BMP
 * characters as CESU-8 surrogate pairs, but those are illegal in paths and rare elsewhere. Decoding is lenient:
 * each maximal malformed subpart becomes U+FFFD, and a leading byte-order mark is kept, because it is data.
 */

/** An upper bound on the encoded size, cheap enough to call before every write. */
export function utf8MaxBytes(s: string): number {
  return s.length * 3;
}

/** Encodes `s` into `out` at `at`; returns the number of bytes written. `out` must have utf8MaxBytes(s) room. */
export function utf8EncodeInto(s: string, out: Uint8Array, at: number): number {
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) return i + (encoder ??= new TextEncoder()).encodeInto(s.slice(i), out.subarray(at + i)).written;
    out[at + i] = c;
  }
  return n;
}

export function utf8Encode(s: string): Uint8Array {
  const tmp = new Uint8Array(utf8MaxBytes(s));
  return tmp.slice(0, utf8EncodeInto(s, tmp, 0));
}

// Made on first use, so a module that only ever sees ASCII never touches them.
let encoder: InstanceType<typeof TextEncoder> | undefined;
let decoder: InstanceType<typeof TextDecoder> | undefined;

/** Decodes bytes[start, end). Malformed input yields U+FFFD per maximal subpart, never throws. */
export function utf8Decode(bytes: Uint8Array, start = 0, end = bytes.length): string {
  for (let i = start; i < end; i++) {
    if (bytes[i]! >= 0x80) return (decoder ??= new TextDecoder('utf-8', { ignoreBOM: true })).decode(bytes.subarray(start, end));
  }
  return asciiDecode(bytes, start, end);
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
  try {
    (strictDecoder ??= new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })).decode(bytes.subarray(start, end));
    return true;
  } catch {
    return false;
  }
}

let strictDecoder: InstanceType<typeof TextDecoder> | undefined;
