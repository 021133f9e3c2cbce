/**
 * Streaming frame decoder: bytes arrive in chunks of any size (TCP splits and coalesces freely); frames come out
 * whole. It tells "need more bytes" from "this stream is broken" (a negative length prefix, or one above the
 * configured maximum), and `next()` never throws.
 *
 * Pushed chunks are kept in a list, not copied into one growing buffer, so a big frame arriving in many small
 * chunks costs one copy (when it is cut out), not one per push. A frame that lies inside a single chunk is
 * returned as a view of that chunk without copying: do not modify a chunk after pushing it.
 *
 * It is the one frame splitter of the codebase: the client and the in-memory server take payloads; the test proxies
 * (testing/frame-splitter.ts) and the capture pipeline (tools/capture/zk-framer.ts) take whole frames
 * (`keepPrefix`) and keep only their own decisions on top, using `drain()` to get back the bytes of a stream that
 * stopped being frames (to pass them on raw, or to scan them for the next frame start).
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
  | {
      kind: 'frame';
      /** The frame's payload; under `keepPrefix`, the whole frame, length prefix included. */
      payload: Uint8Array;
    }
  | { kind: 'need-more'; needed: number }
  | { kind: 'error'; error: FrameError };

/** Options of the FrameDecoder. */
export interface FrameDecoderOptions {
  /** Largest accepted payload (the length prefix's value), default DEFAULT_MAX_FRAME_SIZE. */
  maxFrameSize?: number;
  /**
   * Return each frame whole, its length prefix included, as it was on the wire (what a proxy forwards and a
   * capture records), instead of its payload. Default false.
   */
  keepPrefix?: boolean;
}

const PREFIX = 4;

/**
 * Cuts a byte stream into ZooKeeper frames (int32 length prefix + payload), however the bytes are split into chunks.
 */
export class FrameDecoder {
  readonly #maxFrameSize: number;
  /** Bytes cut from the front of each frame: the length prefix, or none under keepPrefix. */
  readonly #skip: number;
  readonly #chunks: Uint8Array[] = [];
  /** Index of the first unconsumed chunk in `chunks` (consumed heads are dropped in batches). */
  #head = 0;
  /** Read offset inside chunks[head]; always inside it (chunks are never empty). */
  #offset = 0;
  #total = 0;
  #failure: FrameError | undefined;

  constructor(opts: FrameDecoderOptions = {}) {
    this.#maxFrameSize = opts.maxFrameSize ?? DEFAULT_MAX_FRAME_SIZE;
    this.#skip = opts.keepPrefix ? 0 : PREFIX;
  }

  /** Bytes pushed and not yet returned as frames (after an error, those from the bad length prefix on). */
  get buffered(): number {
    return this.#total;
  }

  /** Appends bytes received from the stream (ignored once the stream is broken, until `drain()`). */
  push(chunk: Uint8Array): void {
    if (chunk.length === 0 || this.#failure !== undefined) return;
    this.#chunks.push(chunk);
    this.#total += chunk.length;
  }

  /**
   * The next whole frame's payload, or how many more bytes are needed at least, or the error that makes the rest of
   * the stream meaningless. Errors are sticky: once broken, every later call returns the same error (until
   * `drain()`).
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
    return { kind: 'frame', payload: this.#take(PREFIX + length, this.#skip) };
  }

  /**
   * Everything held, as a copy (an incomplete frame; after an error, the bytes from the bad length prefix on), and a
   * fresh start: the decoder is empty and no longer broken. A proxy passes these bytes on unframed; a capture reader
   * scans them for the next frame start and pushes again from there.
   */
  drain(): Uint8Array {
    this.#failure = undefined;
    // new Uint8Array(view) copies; a Node Buffer's slice() would not.
    return this.#total > 0 ? new Uint8Array(this.#take(this.#total, 0)) : new Uint8Array(0);
  }

  #fail(error: FrameError): FrameResult {
    // The bytes stay (for drain()); push ignores new ones meanwhile.
    this.#failure = error;
    return { kind: 'error', error };
  }

  /** The big-endian int32 at the read position (caller checked that 4 bytes are buffered). */
  #peekInt32(): number {
    let v = 0;
    let i = this.#head;
    let o = this.#offset;
    let c = this.#chunks[i]!;
    for (let n = 0; n < PREFIX; n++) {
      if (o === c.length) {
        c = this.#chunks[++i]!;
        o = 0;
      }
      v = (v << 8) | c[o++]!;
    }
    return v | 0;
  }

  /** The next n held bytes (n > 0), less the first `skip`: a view of one chunk if they lie in it, else a copy. */
  #take(n: number, skip: number): Uint8Array {
    this.#total -= n;
    const first = this.#chunks[this.#head]!;
    const at = this.#offset;
    if (n <= first.length - at) {
      this.#offset += n;
      if (this.#offset === first.length) this.#advanceChunk();
      return first.subarray(at + skip, at + n);
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
    return out.subarray(skip);
  }

  /** Drops the exhausted head chunk, so the read position always sits inside a chunk. */
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
