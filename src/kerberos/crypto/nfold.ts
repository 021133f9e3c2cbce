/**
 * RFC 3961 section 5.1's n-fold: stretches or folds a byte string to `outBytes`, by repeating it, each copy rotated
 * 13 bits further right, up to the least common multiple of the two lengths, and adding the `outBytes` chunks with
 * one's-complement addition (end-around carry). Key derivation folds its usage constant to the cipher's block size.
 */
export function nfold(input: Uint8Array, outBytes: number): Uint8Array {
  const inBytes = input.length;
  const lcm = (inBytes * outBytes) / gcd(inBytes, outBytes);
  const out = new Uint8Array(outBytes);
  // Walk the lcm bytes from the last to the first, as MIT's k5_nfold does, carrying into the byte before.
  let carry = 0;
  for (let i = lcm - 1; i >= 0; i--) {
    const copy = Math.floor(i / inBytes);
    // Bit position (in the unrotated input) of this byte's most significant bit, after `copy` rotations by 13.
    const msbit = (((inBytes << 3) - 1) + (((inBytes << 3) + 13) * copy) + ((inBytes - (i % inBytes)) << 3)) % (inBytes << 3);
    const hi = input[((inBytes - 1) - (msbit >>> 3)) % inBytes]!;
    const lo = input[(inBytes - (msbit >>> 3)) % inBytes]!;
    const byte = (((hi << 8) | lo) >>> ((msbit & 7) + 1)) & 0xff;
    carry += byte + out[i % outBytes]!;
    out[i % outBytes] = carry & 0xff;
    carry >>>= 8;
  }
  // The end-around carry: what overflowed the top goes back in at the low end (one pass suffices).
  if (carry !== 0) {
    for (let i = outBytes - 1; i >= 0; i--) {
      carry += out[i]!;
      out[i] = carry & 0xff;
      carry >>>= 8;
    }
  }
  return out;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}
