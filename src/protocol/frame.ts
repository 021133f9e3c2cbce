/**
 * Streaming frame decoder: bytes arrive in chunks of any size (TCP splits and coalesces freely); frames come out
 * whole. It tells "need more bytes" from "this stream is broken" (a negative length prefix, or one above the
 * configured maximum), and `next()` never throws.
 *
 * Pushed chunks are kept in a list, not copied into one growing buffer, so a big frame arriving in many small
 * chunks costs one copy (when it is cut out), not one per push. A frame that lies inside a single chunk is
 * returned as a view of that chunk without copying: do not modify a chunk after pushing it.
 */

import { JUTE_MAX_BUFFER } from './opcodes.js';

/**
 * ZooKeeper's jute.maxbuffer (0xfffff) plus headroom: the server limits the frames it *receives* to that, but its
 * replies add headers and a Stat around data that was itself up to the limit. 64 KiB covers the record overhead
 * of any reply to a request that fit.
 */
export const DEFAULT_MAX_FRAME_SIZE = JUTE_MAX_BUFFER + 64 * 1024;

/** Why a stream cannot be framed any more (a negative or over-limit length prefix). */
export interface FrameError {
  code: 'FRAME_TOO_LARGE' | 'CORRUPT';
  message: string;
  /** The offending length prefix. */
  length?: number;
}

/** What `FrameDecoder.next()` returns: a whole frame's payload, how many more bytes it needs, or a framing error. */
export type FrameResult =
  | { kind: 'frame'; payload: Uint8Array }
  | { kind: 'need-more'; needed: number }
  | { kind: 'error'; error: FrameError };

/** Options of the FrameDecoder. */
export interface FrameDecoderOptions {
  /** Largest accepted payload (the length prefix's value), default DEFAULT_MAX_FRAME_SIZE. */
  maxFrameSize?: number;
}

const PREFIX = 4;

/**
 * Cuts a byte stream into ZooKeeper frames (int32 length prefix + payload), however the bytes are split into chunks.
 */
export class FrameDecoder {
  readonly #maxFrameSize: number;
  readonly #chunks: Uint8Array[] = [];
  /** Index of the first unconsumed chunk in `chunks` (consumed heads are dropped in batches). */
  #head = 0;
  /** Read offset inside chunks[head]. */
  #offset = 0;
  #total = 0;
  #failure: FrameError | undefined;

  constructor(opts: FrameDecoderOptions = {}) {
    this.#maxFrameSize = opts.maxFrameSize ?? DEFAULT_MAX_FRAME_SIZE;
  }

  /** Bytes pushed and not yet returned as frames. */
  get buffered(): number {
    return this.#total;
  }

  /** Appends bytes received from the stream. */
  push(chunk: Uint8Array): void {
    if (chunk.length === 0 || this.#failure !== undefined) return;
    this.#chunks.push(chunk);
    this.#total += chunk.length;
  }

  /**
   * The next whole frame's payload, or how many more bytes are needed at least, or the error that makes the rest of
   * the stream meaningless. Errors are sticky: once broken, every later call returns the same error.
   */
  next(): FrameResult {
    if (this.#failure !== undefined) return { kind: 'error', error: this.#failure };
    if (this.#total < PREFIX) return { kind: 'need-more', needed: PREFIX - this.#total };
    const length = this.#peekInt32();
    if (length < 0) {
      return this.#fail({ code: 'CORRUPT', message: `negative frame length ${length}`, length });
    }
    if (length > this.#maxFrameSize) {
      return this.#fail({
        code: 'FRAME_TOO_LARGE',
        message: `frame length ${length} exceeds the maximum of ${this.#maxFrameSize} bytes`,
        length,
      });
    }
    if (this.#total < PREFIX + length) return { kind: 'need-more', needed: PREFIX + length - this.#total };
    this.#discard(PREFIX);
    return { kind: 'frame', payload: this.#take(length) };
  }

  #fail(error: FrameError): FrameResult {
    this.#failure = error;
    // Nothing after a broken frame can be trusted; let the chunks go.
    this.#chunks.length = 0;
    this.#head = 0;
    this.#offset = 0;
    this.#total = 0;
    return { kind: 'error', error };
  }

  /** The big-endian int32 at the read position (caller checked that 4 bytes are buffered). */
  #peekInt32(): number {
    let v = 0;
    let i = this.#head;
    let o = this.#offset;
    for (let n = 0; n < PREFIX; n++) {
      let c = this.#chunks[i]!;
      while (o >= c.length) {
        i++;
        o = 0;
        c = this.#chunks[i]!;
      }
      v = (v << 8) | c[o++]!;
    }
    return v | 0;
  }

  #discard(n: number): void {
    this.#total -= n;
    while (n > 0) {
      const c = this.#chunks[this.#head]!;
      const left = c.length - this.#offset;
      if (n < left) {
        this.#offset += n;
        return;
      }
      n -= left;
      this.#advanceChunk();
    }
    this.#normalize();
  }

  #take(n: number): Uint8Array {
    if (n === 0) return new Uint8Array(0);
    this.#total -= n;
    const first = this.#chunks[this.#head]!;
    const left = first.length - this.#offset;
    if (n <= left) {
      const out = first.subarray(this.#offset, this.#offset + n);
      this.#offset += n;
      this.#normalize();
      return out;
    }
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const c = this.#chunks[this.#head]!;
      const part = Math.min(c.length - this.#offset, n - filled);
      out.set(c.subarray(this.#offset, this.#offset + part), filled);
      filled += part;
      this.#offset += part;
      if (this.#offset === c.length) this.#advanceChunk();
    }
    this.#normalize();
    return out;
  }

  /** Drops a fully read head chunk once it is exhausted, so the read position always sits inside a chunk. */
  #normalize(): void {
    while (this.#head < this.#chunks.length && this.#offset >= this.#chunks[this.#head]!.length) this.#advanceChunk();
  }

  #advanceChunk(): void {
    this.#chunks[this.#head] = EMPTY;
    this.#head++;
    this.#offset = 0;
    if (this.#head === this.#chunks.length) {
      this.#chunks.length = 0;
      this.#head = 0;
    } else if (this.#head >= 64 && this.#head * 2 >= this.#chunks.length) {
      // Compact now and then so the list does not grow without bound while frames keep straddling chunks.
      this.#chunks.splice(0, this.#head);
      this.#head = 0;
    }
  }
}

const EMPTY = new Uint8Array(0);
