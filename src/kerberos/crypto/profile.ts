/**
 * RFC 3961's simplified profile as RFC 3962 instantiates it for AES: keys derived per usage (DK), encryption as
 * confounder + plaintext under AES-CTS with the Ke key, integrity as HMAC-SHA1 truncated to 96 bits with the Ki key,
 * checksums with the Kc key, and string-to-key through PBKDF2-HMAC-SHA1. Encryption types 17 (aes128) and 18 (aes256).
 */

import { concatBytes, utf8Encode } from '../../protocol/index.js';
import { kerberosError } from '../errors.js';
import { ctsDecrypt, ctsEncrypt } from './aes-cts.js';
import { nfold } from './nfold.js';
import { hmac, pbkdf2, randomBytes } from './subtle.js';

/** A key with its encryption type (RFC 3961 section 8: 17 aes128-cts-hmac-sha1-96, 18 aes256-cts-hmac-sha1-96). */
export interface EncryptionKey {
  readonly etype: number;
  readonly value: Uint8Array;
}

/** What one encryption type offers. */
export interface Etype {
  readonly id: number;
  readonly name: string;
  readonly keyBytes: number;
  /** The keyed checksum type bound to this etype (15 hmac-sha1-96-aes128, 16 hmac-sha1-96-aes256). */
  readonly checksumType: number;
  /** RFC 3961 section 3 string-to-key; `params` are the s2kparams of ETYPE-INFO2 (a 4-byte iteration count). */
  stringToKey(password: string, salt: string, params?: Uint8Array): Promise<EncryptionKey>;
  encrypt(key: EncryptionKey, usage: number, plaintext: Uint8Array): Promise<Uint8Array>;
  /** Throws WRONG_KEY when the integrity check fails (wrong key, wrong usage, or tampering). */
  decrypt(key: EncryptionKey, usage: number, ciphertext: Uint8Array): Promise<Uint8Array>;
  checksum(key: EncryptionKey, usage: number, data: Uint8Array): Promise<Uint8Array>;
}

const BLOCK = 16;
const MAC_BYTES = 12;
const DEFAULT_ITERATIONS = 4096;
const ZERO_IV = new Uint8Array(BLOCK);

/** RFC 3961 DK(key, constant): DR's blocks (each the encryption of the one before, from n-fold(constant)). */
export async function deriveKey(key: Uint8Array, constant: Uint8Array): Promise<Uint8Array> {
  const out = new Uint8Array(key.length);
  let block = nfold(constant, BLOCK);
  for (let at = 0; at < out.length; at += BLOCK) {
    block = await ctsEncrypt(key, ZERO_IV, block);
    out.set(block.subarray(0, Math.min(BLOCK, out.length - at)), at);
  }
  // AES's random-to-key is the identity.
  return out;
}

/** The usage constant of RFC 3961 section 5.3: the usage number big-endian, then 0x99 (Kc), 0xAA (Ke) or 0x55 (Ki). */
export function usageConstant(usage: number, kind: 0x99 | 0xaa | 0x55): Uint8Array {
  const c = new Uint8Array(5);
  new DataView(c.buffer).setUint32(0, usage);
  c[4] = kind;
  return c;
}

function aesSha1(id: number, name: string, keyBytes: number, checksumType: number): Etype {
  const check = (key: EncryptionKey): Uint8Array => {
    if (key.etype !== id || key.value.length !== keyBytes) throw kerberosError('NO_KEY', `a ${name} operation got a key of etype ${key.etype} (${key.value.length} bytes)`);
    return key.value;
  };
  return {
    id,
    name,
    keyBytes,
    checksumType,
    async stringToKey(password, salt, params) {
      const iterations = params === undefined || params.length < 4 ? DEFAULT_ITERATIONS : new DataView(params.buffer, params.byteOffset, 4).getUint32(0);
      if (iterations === 0) throw kerberosError('BAD_REPLY', 'the KDC asked for a string-to-key with 0 iterations');
      const tkey = await pbkdf2('SHA-1', utf8Encode(password), utf8Encode(salt), iterations, keyBytes);
      return { etype: id, value: await deriveKey(tkey, utf8Encode('kerberos')) };
    },
    async encrypt(key, usage, plaintext) {
      const k = check(key);
      const ke = await deriveKey(k, usageConstant(usage, 0xaa));
      const ki = await deriveKey(k, usageConstant(usage, 0x55));
      const inner = concatBytes([randomBytes(BLOCK), plaintext]);
      const mac = (await hmac('SHA-1', ki, inner)).subarray(0, MAC_BYTES);
      return concatBytes([await ctsEncrypt(ke, ZERO_IV, inner), mac]);
    },
    async decrypt(key, usage, ciphertext) {
      const k = check(key);
      if (ciphertext.length < BLOCK + MAC_BYTES) throw kerberosError('BAD_REPLY', `a ${name} ciphertext of ${ciphertext.length} bytes is too short`);
      const ke = await deriveKey(k, usageConstant(usage, 0xaa));
      const ki = await deriveKey(k, usageConstant(usage, 0x55));
      const body = ciphertext.subarray(0, ciphertext.length - MAC_BYTES);
      const inner = await ctsDecrypt(ke, ZERO_IV, body);
      const mac = (await hmac('SHA-1', ki, inner)).subarray(0, MAC_BYTES);
      if (!sameBytes(mac, ciphertext.subarray(ciphertext.length - MAC_BYTES))) {
        throw kerberosError('WRONG_KEY', `the integrity check of a ${name} message (usage ${usage}) failed: wrong key or tampered data`);
      }
      return inner.slice(BLOCK);
    },
    async checksum(key, usage, data) {
      const kc = await deriveKey(check(key), usageConstant(usage, 0x99));
      return (await hmac('SHA-1', kc, data)).subarray(0, MAC_BYTES);
    },
  };
}

/** Compares in time independent of where the bytes differ (a MAC check). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** aes128-cts-hmac-sha1-96 (RFC 3962). */
export const AES128_CTS_HMAC_SHA1_96 = aesSha1(17, 'aes128-cts-hmac-sha1-96', 16, 15);
/** aes256-cts-hmac-sha1-96 (RFC 3962). */
export const AES256_CTS_HMAC_SHA1_96 = aesSha1(18, 'aes256-cts-hmac-sha1-96', 32, 16);

/** The encryption types we speak, strongest first: the order we offer them to the KDC. */
export const SUPPORTED_ETYPES: readonly Etype[] = [AES256_CTS_HMAC_SHA1_96, AES128_CTS_HMAC_SHA1_96];

/** The etype with this number, or undefined if we do not speak it. */
export function etypeById(id: number): Etype | undefined {
  return SUPPORTED_ETYPES.find((e) => e.id === id);
}
