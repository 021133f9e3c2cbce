/** Byte-array helpers shared by the tools and tests (the protocol layer has no Buffer to lean on). */

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
