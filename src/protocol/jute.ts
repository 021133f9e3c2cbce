/**
 * The Jute binary primitives: big-endian int/long/boolean, length-prefixed buffers, strings and vectors,
 * with -1 meaning null. Everything else in the codec is built from JuteReader and JuteWriter.
 *
 * Reading never lets a RangeError escape: every read checks its bounds first and throws a typed
 * JuteDecodeError, whose `reason` tells "the bytes ran out" (`short`) from "these bytes cannot be
 * this record" (`corrupt`). A caller that knows it holds a whole frame turns `short` into corrupt.
 */

import { utf8Decode, utf8EncodeInto, utf8MaxBytes } from './utf8.js';

/** Why decoding stopped: the bytes ended too soon, or they cannot be the record. */
export type JuteDecodeReason = 'short' | 'corrupt';

/** A record could not be decoded from the bytes. */
export class JuteDecodeError extends Error {
  override readonly name = 'JuteDecodeError';
  constructor(
    readonly reason: JuteDecodeReason,
    message: string,
    /** Byte offset inside the decoded payload where decoding stopped. */
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Jute's `-1` length: a null buffer, string or vector (distinct from an empty one). */
export const NULL_LENGTH = -1;

/** Reads Jute primitives (big-endian ints and longs, length-prefixed buffers, strings and vectors) from bytes. */
export class JuteReader {
  readonly #view: DataView;
  #pos: number;
  readonly #end: number;

  constructor(
    readonly bytes: Uint8Array,
    start = 0,
    end = bytes.length,
  ) {
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.#pos = start;
    this.#end = end;
  }

  /** Where the next read starts. */
  get offset(): number {
    return this.#pos;
  }

  /** Bytes left before the end. */
  get remaining(): number {
    return this.#end - this.#pos;
  }

  #need(n: number, what: string): void {
    if (this.#end - this.#pos < n) {
      throw new JuteDecodeError(
        'short',
        `need ${n} byte(s) for ${what} at offset ${this.#pos}, have ${this.#end - this.#pos}`,
        this.#pos,
      );
    }
  }

  /** Reads an int32; `what` names it in the error. */
  readInt(what = 'int'): number {
    this.#need(4, what);
    const v = this.#view.getInt32(this.#pos);
    this.#pos += 4;
    return v;
  }

  /** Reads an int64. */
  readLong(what = 'long'): bigint {
    this.#need(8, what);
    const v = this.#view.getBigInt64(this.#pos);
    this.#pos += 8;
    return v;
  }

  /** Reads a boolean (one byte). */
  readBool(what = 'boolean'): boolean {
    this.#need(1, what);
    // Java's reader treats any non-zero byte as true; so do we. Re-encoding writes 0/1, which is
    // what every real client and server sends.
    return this.bytes[this.#pos++] !== 0;
  }

  /** Reads a length prefix: -1 is null, other negatives are corrupt, larger than what is left is short. */
  #readLength(what: string): number {
    const at = this.#pos;
    const len = this.readInt(`${what} length`);
    if (len < NULL_LENGTH) {
      throw new JuteDecodeError('corrupt', `negative length ${len} for ${what} at offset ${at}`, at);
    }
    return len;
  }

  /** Reads a length-prefixed buffer; null for length -1. */
  readBuffer(what = 'buffer'): Uint8Array | null {
    const len = this.#readLength(what);
    if (len === NULL_LENGTH) return null;
    this.#need(len, what);
    // A copy, so a decoded record never pins (or aliases) the receive buffer.
    const out = this.bytes.slice(this.#pos, this.#pos + len);
    this.#pos += len;
    return out;
  }

  /** Reads a length-prefixed UTF-8 string; null for length -1. */
  readString(what = 'ustring'): string | null {
    const len = this.#readLength(what);
    if (len === NULL_LENGTH) return null;
    this.#need(len, what);
    const s = utf8Decode(this.bytes, this.#pos, this.#pos + len);
    this.#pos += len;
    return s;
  }

  /** A vector: -1 is null. Each element is read by `readItem`. */
  readVector<T>(readItem: (r: JuteReader) => T, what = 'vector'): T[] | null {
    const at = this.#pos;
    const count = this.#readLength(what);
    if (count === NULL_LENGTH) return null;
    // Every element takes at least one byte, so a count larger than what is left is a lie or a truncation.
    if (count > this.remaining) {
      throw new JuteDecodeError('short', `${what} claims ${count} element(s) at offset ${at}, only ${this.remaining} byte(s) left`, at);
    }
    const out: T[] = new Array<T>(count);
    for (let i = 0; i < count; i++) out[i] = readItem(this);
    return out;
  }

  /** Reads a vector of strings; null for length -1. */
  readStringVector(what = 'vector<ustring>'): string[] | null {
    return this.readVector((r) => r.readString(`${what} element`) ?? '', what);
  }

  /** The bytes not yet read (a copy). */
  readRest(): Uint8Array {
    const out = this.bytes.slice(this.#pos, this.#end);
    this.#pos = this.#end;
    return out;
  }
}

const INITIAL_CAPACITY = 256;

/**
 * A growable output buffer. One writer is meant to be reused: `reset()` keeps its memory, so encoding a
 * request on the hot path allocates nothing but (rarely) a bigger backing array.
 */
export class JuteWriter {
  #buf: Uint8Array;
  #view: DataView;
  #pos = 0;

  constructor(capacity = INITIAL_CAPACITY) {
    this.#buf = new Uint8Array(capacity);
    this.#view = new DataView(this.#buf.buffer);
  }

  /** Bytes written so far. */
  get length(): number {
    return this.#pos;
  }

  /** Starts over, keeping the buffer's memory. */
  reset(): this {
    this.#pos = 0;
    return this;
  }

  #ensure(n: number): void {
    const need = this.#pos + n;
    if (need <= this.#buf.length) return;
    let cap = this.#buf.length * 2;
    while (cap < need) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.#buf.subarray(0, this.#pos));
    this.#buf = next;
    this.#view = new DataView(next.buffer);
  }

  /** Writes an int32. */
  writeInt(v: number): this {
    this.#ensure(4);
    this.#view.setInt32(this.#pos, v);
    this.#pos += 4;
    return this;
  }

  /** Writes an int64. */
  writeLong(v: bigint): this {
    this.#ensure(8);
    this.#view.setBigInt64(this.#pos, BigInt.asIntN(64, v));
    this.#pos += 8;
    return this;
  }

  /** Writes a boolean (one byte). */
  writeBool(v: boolean): this {
    this.#ensure(1);
    this.#buf[this.#pos++] = v ? 1 : 0;
    return this;
  }

  /** Writes a length-prefixed buffer; null as length -1. */
  writeBuffer(v: Uint8Array | null): this {
    if (v === null) return this.writeInt(NULL_LENGTH);
    this.#ensure(4 + v.length);
    this.#view.setInt32(this.#pos, v.length);
    this.#buf.set(v, this.#pos + 4);
    this.#pos += 4 + v.length;
    return this;
  }

  /** Writes a length-prefixed UTF-8 string; null as length -1. */
  writeString(v: string | null): this {
    if (v === null) return this.writeInt(NULL_LENGTH);
    this.#ensure(4 + utf8MaxBytes(v));
    const n = utf8EncodeInto(v, this.#buf, this.#pos + 4);
    this.#view.setInt32(this.#pos, n);
    this.#pos += 4 + n;
    return this;
  }

  /** Writes a vector: its length, then each item with `writeItem`; null as length -1. */
  writeVector<T>(items: readonly T[] | null, writeItem: (w: JuteWriter, item: T) => void): this {
    if (items === null) return this.writeInt(NULL_LENGTH);
    this.writeInt(items.length);
    for (const item of items) writeItem(this, item);
    return this;
  }

  /** Writes a vector of strings; null as length -1. */
  writeStringVector(items: readonly string[] | null): this {
    if (items === null) return this.writeInt(NULL_LENGTH);
    this.writeInt(items.length);
    for (const item of items) this.writeString(item);
    return this;
  }

  /** Writes raw bytes, with no length prefix. */
  writeBytes(v: Uint8Array): this {
    this.#ensure(v.length);
    this.#buf.set(v, this.#pos);
    this.#pos += v.length;
    return this;
  }

  /** Reserves a 4-byte length prefix; pass the returned mark to `endFrame`. */
  beginFrame(): number {
    const mark = this.#pos;
    this.writeInt(0);
    return mark;
  }

  /** Back-patches the length prefix reserved by `beginFrame` with the payload size written since. */
  endFrame(mark: number): this {
    this.#view.setInt32(mark, this.#pos - mark - 4);
    return this;
  }

  /** A view of the bytes written so far. Valid until the next write or reset. */
  written(): Uint8Array {
    return this.#buf.subarray(0, this.#pos);
  }

  /** A copy of the bytes written so far, safe to keep or hand to a socket. */
  toBytes(): Uint8Array {
    return this.#buf.slice(0, this.#pos);
  }
}
