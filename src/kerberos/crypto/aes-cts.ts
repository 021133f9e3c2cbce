/**
 * AES in CBC mode with ciphertext stealing, as RFC 3962 section 5 uses it (the CBC-CS3 variant: the last two blocks
 * are always swapped, even when the input is a whole number of blocks, and a one-block input is plain AES). The
 * output is exactly as long as the input, which must be at least one block. Built on WebCrypto's AES-CBC.
 */

import { aesCbcDecrypt, aesCbcEncrypt } from './subtle.js';

const BLOCK = 16;

/** Encrypts `data` (at least 16 bytes) with AES-CBC-CTS under `key` and initial vector `iv`. */
export async function ctsEncrypt(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  if (data.length < BLOCK) throw new RangeError(`AES-CTS needs at least ${BLOCK} bytes, got ${data.length}`);
  const blocks = Math.ceil(data.length / BLOCK);
  const padded = new Uint8Array(blocks * BLOCK);
  padded.set(data);
  const cbc = await aesCbcEncrypt(key, iv, padded);
  if (blocks === 1) return cbc;
  // CBC over the zero-padded input, then the last two blocks swapped and the (new) last one cut to the tail's size.
  const tail = data.length - (blocks - 1) * BLOCK;
  const out = new Uint8Array(data.length);
  out.set(cbc.subarray(0, (blocks - 2) * BLOCK));
  out.set(cbc.subarray((blocks - 1) * BLOCK), (blocks - 2) * BLOCK);
  out.set(cbc.subarray((blocks - 2) * BLOCK, (blocks - 2) * BLOCK + tail), (blocks - 1) * BLOCK);
  return out;
}

/** Decrypts what `ctsEncrypt` made. */
export async function ctsDecrypt(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  if (data.length < BLOCK) throw new RangeError(`AES-CTS needs at least ${BLOCK} bytes, got ${data.length}`);
  const blocks = Math.ceil(data.length / BLOCK);
  if (blocks === 1) return aesCbcDecrypt(key, iv, data);
  const tail = data.length - (blocks - 1) * BLOCK;
  const lastFull = data.subarray((blocks - 2) * BLOCK, (blocks - 1) * BLOCK);
  const cut = data.subarray((blocks - 1) * BLOCK);
  // The block before the swap decrypts (without chaining) to the zero-padded tail XOR the stolen block; its bytes
  // past the tail are therefore the stolen block's missing bytes.
  const d = await aesCbcDecrypt(key, new Uint8Array(BLOCK), lastFull);
  const stolen = new Uint8Array(BLOCK);
  stolen.set(cut);
  stolen.set(d.subarray(tail), tail);
  const chain = new Uint8Array((blocks - 1) * BLOCK);
  chain.set(data.subarray(0, (blocks - 2) * BLOCK));
  chain.set(stolen, (blocks - 2) * BLOCK);
  const head = await aesCbcDecrypt(key, iv, chain);
  const out = new Uint8Array(data.length);
  out.set(head);
  for (let i = 0; i < tail; i++) out[(blocks - 1) * BLOCK + i] = d[i]! ^ cut[i]!;
  return out;
}
