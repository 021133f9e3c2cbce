/**
 * The few WebCrypto calls Kerberos needs (AES-CBC, HMAC, PBKDF2, SHA), through `crypto.subtle`, which Node, Deno,
 * Bun, workerd and browsers all have. The types are declared here, minimally, because the portable floors compile
 * without DOM or Node types (tsconfig.core.json). WebCrypto has no raw AES block operation, so the two block
 * helpers below build it from AES-CBC: an encryption keeps the first block and drops the padding block WebCrypto
 * appends; a decryption first appends the block that decrypts to a valid padding block, so WebCrypto accepts it.
 */

interface CryptoKeyLike {
  readonly type: string;
}

interface SubtleLike {
  importKey(format: 'raw', key: Uint8Array, algorithm: unknown, extractable: boolean, usages: string[]): Promise<CryptoKeyLike>;
  encrypt(algorithm: unknown, key: CryptoKeyLike, data: Uint8Array): Promise<ArrayBuffer>;
  decrypt(algorithm: unknown, key: CryptoKeyLike, data: Uint8Array): Promise<ArrayBuffer>;
  sign(algorithm: unknown, key: CryptoKeyLike, data: Uint8Array): Promise<ArrayBuffer>;
  deriveBits(algorithm: unknown, key: CryptoKeyLike, length: number): Promise<ArrayBuffer>;
  digest(algorithm: string, data: Uint8Array): Promise<ArrayBuffer>;
}

function subtle(): SubtleLike {
  const s = (globalThis as { crypto?: { subtle?: SubtleLike } }).crypto?.subtle;
  if (s === undefined) throw new Error('Kerberos needs WebCrypto (crypto.subtle), which this runtime does not provide');
  return s;
}

const BLOCK = 16;

/** AES-CBC encryption without padding: `data` is a whole number of blocks. */
export async function aesCbcEncrypt(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const k = await subtle().importKey('raw', key, { name: 'AES-CBC' }, false, ['encrypt']);
  const out = new Uint8Array(await subtle().encrypt({ name: 'AES-CBC', iv }, k, data));
  return out.subarray(0, data.length);
}

/** AES-CBC decryption without padding: `data` is a whole number of blocks (at least one). */
export async function aesCbcDecrypt(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const s = subtle();
  const last = data.subarray(data.length - BLOCK);
  // The block whose decryption, chained on `last`, is sixteen 0x10 bytes: PKCS#7's padding of an empty block.
  const pad = new Uint8Array(BLOCK).fill(BLOCK);
  for (let i = 0; i < BLOCK; i++) pad[i]! ^= last[i]!;
  const extra = await aesCbcEncrypt(key, new Uint8Array(BLOCK), pad);
  const padded = new Uint8Array(data.length + BLOCK);
  padded.set(data);
  padded.set(extra, data.length);
  const k = await s.importKey('raw', key, { name: 'AES-CBC' }, false, ['decrypt']);
  return new Uint8Array(await s.decrypt({ name: 'AES-CBC', iv }, k, padded));
}

/** HMAC over `data` with SHA-1 (RFC 3962) or SHA-256/384 (RFC 8009). */
export async function hmac(hash: 'SHA-1' | 'SHA-256' | 'SHA-384', key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const k = await subtle().importKey('raw', key, { name: 'HMAC', hash }, false, ['sign']);
  return new Uint8Array(await subtle().sign('HMAC', k, data));
}

/** PBKDF2 (RFC 8018) with HMAC-`hash`, `bytes` long. */
export async function pbkdf2(hash: 'SHA-1' | 'SHA-256' | 'SHA-384', password: Uint8Array, salt: Uint8Array, iterations: number, bytes: number): Promise<Uint8Array> {
  const k = await subtle().importKey('raw', password, 'PBKDF2', false, ['deriveBits']);
  return new Uint8Array(await subtle().deriveBits({ name: 'PBKDF2', hash, salt, iterations }, k, bytes * 8));
}

/** MD5 is not in WebCrypto; SHA-256 is, for the GSS channel-binding hash we leave empty anyway. */
export async function digest(hash: 'SHA-256', data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await subtle().digest(hash, data));
}

/** Cryptographically random bytes (confounders, nonces, subkeys). */
export function randomBytes(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n));
}
