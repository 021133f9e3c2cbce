/**
 * Bytes the codec keeps without interpreting: the body of a request whose opcode has no client-side record
 * (deleteContainer, which the server parses as raw path bytes) or that ZooKeeper does not define at all.
 * A class, so the describer can tell it from a record and show it as `{"raw": hex}` like the golden files.
 */

import type { JuteReader, JuteWriter } from '../jute.js';

/** A body kept as raw bytes: deleteContainer's, or that of an opcode ZooKeeper does not define. */
export class OpaqueBody {
  constructor(readonly raw: Uint8Array) {}
}

export function encodeOpaqueBody(w: JuteWriter, v: OpaqueBody): void {
  w.writeBytes(v.raw);
}

/** Takes every byte left in the reader. */
export function decodeOpaqueBody(r: JuteReader): OpaqueBody {
  return new OpaqueBody(r.readRest());
}
