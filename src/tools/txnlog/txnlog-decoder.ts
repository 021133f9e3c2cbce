/**
 * A streaming decoder of ZooKeeper transaction log files (`version-2/log.<zxid>`), fed chunks of any size.
 *
 * Layout (FileTxnLog): a 16-byte FileHeader (magic "ZKLG", version 2, dbid), then entries, each
 *   long checksum (Adler-32 of the payload) · int length · payload (TxnHeader, record, TxnDigest) · byte 'B'
 * and then, in a live log, a preallocated tail of zeros: an entry whose checksum and length are both 0 ends the file.
 *
 * Memory stays flat whatever the file's size: only the unconsumed end of the last chunk is kept (at most one entry
 * plus one chunk), and the zero tail is counted, never kept — a 1 GB preallocated log costs what its entries cost.
 *
 * A bad entry does not end decoding. With a plausible length and its 'B' in place, a checksum mismatch skips just
 * that entry; otherwise the decoder scans forward for the next position that holds a whole entry with a matching
 * checksum and resumes there (Damage says where it stopped and where it resumed).
 */

import { JuteDecodeError } from '../../protocol/jute.js';
import { ChunkBuffer } from '../shared/chunk-buffer.js';
import { adler32 } from './adler32.js';
import { DataFileError, type DamageCode } from './errors.js';
import { decodeFileHeader, describeMagic, FILE_HEADER_SIZE, TXNLOG_MAGIC, type FileHeader } from './file-header.js';
import { decodeTxnPayload, type TxnEntry } from './txn-entry.js';

/** The file header, first of every log. */
export interface TxnLogHeaderEvent {
  readonly type: 'header';
  readonly header: FileHeader;
}

/** One transaction. */
export interface TxnEvent {
  readonly type: 'txn';
  /** Byte offset of the entry (its checksum) in the file. */
  readonly offset: number;
  /** The entry's size in the file: checksum, length, payload and end marker. */
  readonly size: number;
  readonly entry: TxnEntry;
}

/** Bytes that could not be decoded: one entry, or a stretch up to the next entry that checks out. */
export interface DamageEvent {
  readonly type: 'damage';
  readonly code: DamageCode;
  /** Byte offset where the bad entry starts. */
  readonly offset: number;
  readonly message: string;
  /** Where decoding resumed; undefined when nothing decodable followed (the rest of the file was skipped). */
  readonly resumedAt: number | undefined;
}

/** The file is done: at the zero tail of a preallocated log, or at the last byte. */
export interface TxnLogEndEvent {
  readonly type: 'end';
  /** Offset just after the last entry. */
  readonly offset: number;
  readonly reason: 'zero-tail' | 'eof';
  /** Transactions decoded. */
  readonly entries: number;
  /** Bytes of preallocated zeros skipped. */
  readonly tailBytes: number;
}

export type TxnLogEvent = TxnLogHeaderEvent | TxnEvent | DamageEvent | TxnLogEndEvent;

/** checksum (8) + length (4) before the payload; the end marker (1) after it. */
const ENTRY_OVERHEAD = 13;
const END_MARKER = 0x42; // 'B'
/**
 * The largest payload believed. ZooKeeper bounds requests by jute.maxbuffer (1 MB by default); operators raise it,
 * rarely past tens of MB. A bigger length is a damaged length, not a transaction.
 */
export const MAX_ENTRY_SIZE = 64 * 1024 * 1024;
/**
 * While scanning for the next entry after damage, a candidate must be smaller than this, so the scan never waits on
 * (and buffers) tens of MB for a length read out of garbage.
 */
const MAX_RESYNC_ENTRY_SIZE = 4 * 1024 * 1024;

type State = 'header' | 'entries' | 'resync' | 'tail';

export class TxnLogDecoder {
  readonly #buf = new ChunkBuffer();
  #state: State = 'header';
  #seen = 0;
  #entries = 0;
  #tailBytes = 0;
  /** Where the last good entry (or the header) ended. */
  #lastEnd = 0;
  /** The damage being scanned past, reported once the scan finds the next entry or the file ends. */
  #pending: Omit<DamageEvent, 'resumedAt'> | undefined;
  /** The input has ended: an entry that is not whole never will be, so it is damage, not a wait. */
  #ending = false;

  /** Bytes held: the unconsumed end of what was pushed (for tests that check memory stays flat). */
  get buffered(): number {
    return this.#buf.available;
  }

  /** Decodes what `chunk` completes; returns the events in file order. Throws DataFileError if this is no log. */
  push(chunk: Uint8Array): TxnLogEvent[] {
    this.#seen += chunk.length;
    if (this.#state === 'tail') {
      this.#tailBytes += chunk.length;
      return [];
    }
    this.#buf.append(chunk);
    const out: TxnLogEvent[] = [];
    this.#run(out);
    return out;
  }

  /** The input ended: reports a truncated last entry, and the end. */
  end(): TxnLogEvent[] {
    const out: TxnLogEvent[] = [];
    const b = this.#buf;
    if (this.#state === 'header') {
      if (this.#seen === 0) throw new DataFileError('EMPTY_FILE', 'the file is empty', 0);
      throw new DataFileError('NOT_A_TXNLOG', `${this.#seen} byte(s) are too few for a transaction log header (16): ${describeMagic(b.buf.subarray(b.pos))}`, 0);
    }
    if (this.#state === 'resync') {
      out.push({ ...this.#pending!, resumedAt: undefined });
      this.#pending = undefined;
    } else if (this.#state === 'entries' && b.available > 0) {
      if (b.buf.subarray(b.pos).every((x) => x === 0)) {
        // Fewer than 12 zeros: still the preallocated tail, cut short.
        this.#tailBytes += b.available;
        this.#state = 'tail';
      } else {
        // A length that runs past the end is a truncation — or a damaged length with whole entries after it.
        this.#ending = true;
        this.#run(out);
        // (#run moved the state on; TypeScript still sees the narrowed one.)
        const state = this.#state as State;
        if (state === 'resync') out.push({ ...this.#pending!, resumedAt: undefined });
        else if (state === 'entries' && b.available > 0) {
          out.push({ type: 'damage', code: 'TRUNCATED_ENTRY', offset: b.offset, message: `the file ends inside an entry: ${b.available} byte(s) after the last complete one`, resumedAt: undefined });
        }
        this.#pending = undefined;
      }
    }
    b.pos = b.buf.length;
    out.push({ type: 'end', offset: this.#lastEnd, reason: this.#state === 'tail' ? 'zero-tail' : 'eof', entries: this.#entries, tailBytes: this.#tailBytes });
    return out;
  }

  #run(out: TxnLogEvent[]): void {
    if (this.#state === 'header' && !this.#header(out)) return;
    for (;;) {
      if (this.#state === 'entries') {
        if (!this.#entriesStep(out)) return;
      } else if (this.#state === 'resync') {
        if (!this.#resyncStep(out)) return;
      } else return;
    }
  }

  #header(out: TxnLogEvent[]): boolean {
    const b = this.#buf;
    if (b.available < FILE_HEADER_SIZE) {
      // A file that cannot be a log should say so at once, not after it has been read to the end.
      if (b.available >= 4 && b.view.getUint32(b.pos) !== TXNLOG_MAGIC) this.#notALog();
      return false;
    }
    if (b.view.getUint32(b.pos) !== TXNLOG_MAGIC) this.#notALog();
    out.push({ type: 'header', header: decodeFileHeader(b.buf, b.pos) });
    b.pos += FILE_HEADER_SIZE;
    this.#lastEnd = FILE_HEADER_SIZE;
    this.#state = 'entries';
    return true;
  }

  #notALog(): never {
    const b = this.#buf;
    throw new DataFileError('NOT_A_TXNLOG', `not a ZooKeeper transaction log (magic ZKLG): ${describeMagic(b.buf.subarray(b.pos, b.pos + 8))}`, 0);
  }

  /** Decodes entries while whole ones are buffered; false when more bytes are needed or the log ended. */
  #entriesStep(out: TxnLogEvent[]): boolean {
    const b = this.#buf;
    const buf = b.buf;
    const view = b.view;
    while (buf.length - b.pos >= 12) {
      const p = b.pos;
      const crcHigh = view.getUint32(p);
      const crc = view.getUint32(p + 4);
      const len = view.getInt32(p + 8);
      if (len === 0 && crc === 0 && crcHigh === 0) {
        // The preallocated zeros: the log ends here (FileTxnLog reads an empty entry as EOF too).
        this.#tailBytes = buf.length - p;
        b.pos = buf.length;
        this.#state = 'tail';
        return false;
      }
      if (len <= 0 || len > MAX_ENTRY_SIZE) {
        this.#damage('BAD_ENTRY', p, `entry length ${len} is not a transaction's`);
        return true;
      }
      const total = len + ENTRY_OVERHEAD;
      if (buf.length - p < total) {
        if (!this.#ending) return false;
        this.#damage('TRUNCATED_ENTRY', p, `the file ends inside an entry: ${buf.length - p} byte(s) after the last complete one`);
        return true;
      }
      if (buf[p + 12 + len] !== END_MARKER) {
        this.#damage('BAD_ENTRY', p, `no end marker 'B' after the ${len}-byte entry (found 0x${buf[p + 12 + len]!.toString(16).padStart(2, '0')})`);
        return true;
      }
      const offset = b.offset;
      b.pos = p + total;
      if (crcHigh !== 0 || adler32(buf, p + 12, p + 12 + len) !== crc) {
        // Length and marker agree, so only this entry's bytes are bad: skip exactly it.
        out.push({ type: 'damage', code: 'CHECKSUM_MISMATCH', offset, message: `checksum mismatch in the ${len}-byte entry`, resumedAt: offset + total });
        continue;
      }
      this.#lastEnd = offset + total;
      try {
        out.push({ type: 'txn', offset, size: total, entry: decodeTxnPayload(buf, p + 12, p + 12 + len) });
        this.#entries++;
      } catch (e) {
        if (!(e instanceof JuteDecodeError)) throw e;
        out.push({ type: 'damage', code: 'UNDECODABLE_TXN', offset, message: `checksum matches but the entry is no transaction: ${e.message}`, resumedAt: offset + total });
      }
    }
    return false;
  }

  #damage(code: DamageCode, at: number, message: string): void {
    this.#pending = { type: 'damage', code, offset: this.#buf.base + at, message };
    this.#state = 'resync';
    this.#buf.pos = at + 1;
  }

  /**
   * Scans for the next position that holds a whole entry (plausible length, 'B' in place, checksum right), dropping
   * the bytes scanned past; false when it needs more bytes.
   */
  #resyncStep(out: TxnLogEvent[]): boolean {
    const b = this.#buf;
    const buf = b.buf;
    const view = b.view;
    for (; buf.length - b.pos >= 12; b.pos++) {
      const p = b.pos;
      const crcHigh = view.getUint32(p);
      const crc = view.getUint32(p + 4);
      const len = view.getInt32(p + 8);
      if (crcHigh === 0 && crc === 0 && len === 0) break; // the zero tail, or a zeroed stretch: report it there
      if (crcHigh !== 0 || len <= 0 || len > MAX_RESYNC_ENTRY_SIZE) continue;
      if (buf.length - p < len + ENTRY_OVERHEAD) {
        if (this.#ending) continue;
        return false; // a candidate, but not whole yet
      }
      if (buf[p + 12 + len] !== END_MARKER || adler32(buf, p + 12, p + 12 + len) !== crc) continue;
      const pending = this.#pending!;
      // Whole entries after it: the "truncated" entry had a damaged length.
      const fixed = pending.code === 'TRUNCATED_ENTRY' ? { ...pending, code: 'BAD_ENTRY' as const, message: 'entry length runs past the end of the file' } : pending;
      out.push({ ...fixed, resumedAt: b.offset });
      this.#pending = undefined;
      this.#state = 'entries';
      return true;
    }
    if (buf.length - b.pos >= 12) {
      out.push({ ...this.#pending!, resumedAt: undefined });
      this.#pending = undefined;
      this.#state = 'entries'; // sees the zeros and ends as a zero tail
      return true;
    }
    return false;
  }
}

/** The events of one log, a batch per chunk (cheaper than one `yield` per entry on a big file). */
export async function* decodeTxnLog(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<TxnLogEvent[]> {
  const decoder = new TxnLogDecoder();
  for await (const chunk of chunks) {
    const events = decoder.push(chunk);
    if (events.length > 0) yield events;
  }
  yield decoder.end();
}
