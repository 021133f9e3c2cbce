/** Byte-array helpers shared by the client, the recipes, the tools and tests (the protocol layer has no Buffer to lean on). */

/** Big-endian int32 at `at` (the caller checked that 4 bytes are there): a read with no DataView to allocate. */
export function int32(b: Uint8Array, at: number): number {
  return ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) | 0;
}

/** Whether two byte arrays hold the same bytes (not constant-time: for data, never for secrets). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** Joins chunks into one array; a single chunk is returned as it is, without copying. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  let total = 0;
  for (const p of parts) total += p.length;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
