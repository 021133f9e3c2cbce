/**
 * UTF-8 of Jute strings, checked against byte sequences worked out by hand from the Unicode standard (not against
 * the platform codec the module itself uses for non-ASCII text).
 */

import { describe, expect, it } from 'vitest';
import { isValidUtf8, utf8Decode, utf8Encode, utf8EncodeInto, utf8MaxBytes } from '../../src/protocol/index.js';
import { Gen } from './generators.js';

const hex = (b: Uint8Array): string => [...b].map((x) => x.toString(16).padStart(2, '0')).join(' ');
const bytes = (...b: number[]): Uint8Array => Uint8Array.from(b);

describe('utf8Encode', () => {
  it('writes one to four bytes per code point', () => {
    expect(hex(utf8Encode('a\u00e9\u4e2d\u{1f600}'))).toBe('61 c3 a9 e4 b8 ad f0 9f 98 80');
    expect(hex(utf8Encode(''))).toBe('');
  });

  it('writes a lone surrogate as U+FFFD, wherever it stands', () => {
    expect(hex(utf8Encode('\ud800x'))).toBe('ef bf bd 78');
    expect(hex(utf8Encode('x\udc00'))).toBe('78 ef bf bd');
    expect(hex(utf8Encode('\ud83d'))).toBe('ef bf bd');
  });

  it('writes at the given offset after an ASCII prefix and reports the bytes written', () => {
    const out = new Uint8Array(4 + utf8MaxBytes('ab\u00e9'));
    expect(utf8EncodeInto('ab\u00e9', out, 4)).toBe(4);
    expect(hex(out.subarray(0, 8))).toBe('00 00 00 00 61 62 c3 a9');
  });
});

describe('utf8Decode', () => {
  it('reads ASCII and multi-byte text, within the given range only', () => {
    const b = bytes(0x78, 0x61, 0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80, 0x78);
    expect(utf8Decode(b, 1, 8)).toBe('a\u00e9\u{1f600}');
    expect(utf8Decode(b, 0, 1)).toBe('x');
    expect(utf8Decode(b, 3, 3)).toBe('');
  });

  it('keeps a leading byte-order mark: it is part of the data', () => {
    expect(utf8Decode(bytes(0xef, 0xbb, 0xbf, 0x61))).toBe('\ufeffa');
  });

  it('replaces each maximal malformed subpart with one U+FFFD', () => {
    // The Unicode standard's example for "U+FFFD substitution of maximal subparts" (chapter 3, table 3-8).
    const b = bytes(0x61, 0xf1, 0x80, 0x80, 0xe1, 0x80, 0xc2, 0x62, 0x80, 0x63, 0x80, 0xbf, 0x64);
    expect(utf8Decode(b)).toBe('a\ufffd\ufffd\ufffdb\ufffdc\ufffd\ufffdd');
    // An overlong NUL and an encoded surrogate are not well-formed prefixes: one U+FFFD per byte.
    expect(utf8Decode(bytes(0xc0, 0x80))).toBe('\ufffd\ufffd');
    expect(utf8Decode(bytes(0xed, 0xa0, 0x80))).toBe('\ufffd\ufffd\ufffd');
  });

  it('round-trips generated text', () => {
    const gen = new Gen(11);
    for (let i = 0; i < 500; i++) {
      const s = gen.text() + (gen.chance(0.2) ? '\u{10348}' : '');
      expect(utf8Decode(utf8Encode(s))).toBe(s);
    }
  });
});

describe('isValidUtf8', () => {
  it('accepts well-formed text, including a genuine U+FFFD, and rejects malformed bytes', () => {
    expect(isValidUtf8(utf8Encode('h\u00e9llo \ufffd'))).toBe(true);
    expect(isValidUtf8(bytes(0x61, 0xc2))).toBe(false);
    expect(isValidUtf8(bytes(0x61, 0xc2, 0x62), 0, 1)).toBe(true);
    expect(isValidUtf8(bytes(0xff))).toBe(false);
  });
});
