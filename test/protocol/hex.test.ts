/** hexEncode/hexDecode against Node's Buffer hex, on short inputs and on long ones that span several rows. */

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hexDecode, hexEncode } from '../../src/protocol/index.js';

describe('hexEncode', () => {
  it('matches Buffer hex for every byte value and for long inputs, whole and sliced', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(hexEncode(all)).toBe(Buffer.from(all).toString('hex'));
    for (const n of [0, 1, 16, 17, 4095, 4096, 4097, 10_000]) {
      const b = new Uint8Array(randomBytes(n));
      expect(hexEncode(b)).toBe(Buffer.from(b).toString('hex'));
      expect(hexEncode(b, Math.min(3, n), Math.max(Math.min(3, n), n - 5))).toBe(Buffer.from(b.subarray(Math.min(3, n), Math.max(Math.min(3, n), n - 5))).toString('hex'));
      expect(hexDecode(hexEncode(b))).toStrictEqual(b);
    }
  });
});
