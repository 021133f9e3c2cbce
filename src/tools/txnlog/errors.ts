/**
 * How the transaction log and snapshot decoders report what they cannot read. Two kinds, kept apart on purpose:
 *
 * - DataFileError (thrown): the file as a whole cannot be read — empty, another kind of file, a compression we do not
 *   decode. Nothing after it can be trusted, so decoding stops. A ToolError, as CaptureFormatError: a stable
 *   `code` for scripts and the byte offset where reading stopped.
 * - Damage (an event in the stream, not thrown): one entry is bad (its checksum, its length, its end marker) or the
 *   file ends inside one. The entries before and after it are still worth showing, which is the point of reading a
 *   damaged log at all.
 */

import { ToolError } from '../shared/tool-error.js';

/** Why a whole file could not be read. */
export type DataFileErrorCode =
  /** Zero bytes: ZooKeeper never writes an empty log or snapshot, so this is a copy or a disk gone wrong. */
  | 'EMPTY_FILE'
  /** The first bytes are not a ZooKeeper transaction log (magic ZKLG). */
  | 'NOT_A_TXNLOG'
  /** The first bytes are not a ZooKeeper snapshot (magic ZKSN). */
  | 'NOT_A_SNAPSHOT'
  /** A snapshot whose records do not parse, or whose seal checksum is wrong. */
  | 'CORRUPT_SNAPSHOT'
  /** A snapshot compressed with a method this decoder does not implement (snappy). */
  | 'UNSUPPORTED_COMPRESSION';

/** A log or snapshot that cannot be read; its offset is in the decompressed stream for a compressed snapshot. */
export class DataFileError extends ToolError<DataFileErrorCode> {
  override readonly name = 'DataFileError';
}

/** Why one transaction log entry was skipped. */
export type DamageCode =
  /** The stored Adler-32 does not match the entry's bytes. */
  | 'CHECKSUM_MISMATCH'
  /** The entry's length is negative or absurd, or its end marker ('B') is not where the length says. */
  | 'BAD_ENTRY'
  /** The checksum matches but the bytes are not a transaction this decoder knows. */
  | 'UNDECODABLE_TXN'
  /** The file ends inside an entry (not at the preallocated zero tail). */
  | 'TRUNCATED_ENTRY';
