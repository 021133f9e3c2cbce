/** A named encode/decode pair, so the opcode and multi tables can pick a record codec by number. */

import type { JuteReader, JuteWriter } from '../jute.js';

/** A record's encoder and decoder as a pair. */
export interface RecordCodec<T> {
  /** The zookeeper.jute record name, as shown in the golden files' `records` and multi `record` fields. */
  readonly name: string;
  /** Writes the record. */
  encode(w: JuteWriter, v: T): void;
  /** Reads the record. */
  decode(r: JuteReader): T;
}

export function codec<T>(name: string, encode: (w: JuteWriter, v: T) => void, decode: (r: JuteReader) => T): RecordCodec<T> {
  return { name, encode, decode };
}
