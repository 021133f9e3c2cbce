/**
 * One direction's reassembled bytes cut into ZooKeeper frames (4-byte length prefix, then the payload). After a gap
 * — or when the capture began in the middle of a connection — it resynchronises: it skips to the next offset where
 * a length prefix within the frame-size limit is followed by a plausible header (see `FrameCheck`).
 *
 * Frames come out as views of the input where they lie inside one delivery, else in a buffer of their own: the
 * bytes behind a frame are never overwritten, but do not keep a frame past the callback that received it.
 */

import { DEFAULT_MAX_FRAME_SIZE } from '../../protocol/index.js';
import { int32 } from './frame-shape.js';

/** Does a frame plausibly start at `at` (`b` holds at least `headerBytes` bytes from there)? */
export type FrameCheck = (b: Uint8Array, at: number) => boolean;

export interface FrameSink {
  frame(bytes: Uint8Array, timeUs: number): void;
  /** Bytes that are not part of any frame this framer will emit: skipped while resynchronising. */
  skipped(bytes: number, reason: string, timeUs: number): void;
}

const EMPTY = new Uint8Array(0);

export class ZkFramer {
  readonly #maxFrameSize: number;
  readonly #check: FrameCheck;
  readonly #headerBytes: number;
  readonly #sink: FrameSink;
  /** A frame being assembled across deliveries: its full size is known (the prefix was read). */
  #partial: Uint8Array | undefined;
  #filled = 0;
  /** Up to 3 bytes of a length prefix split across deliveries. */
  #prefix = EMPTY;
  /** Resynchronising: bytes are scanned for a plausible frame start instead of framed. */
  #searching: boolean;
  #scanTail = EMPTY;
  #skippedBytes = 0;
  #searchReason = '';

  constructor(
    sink: FrameSink,
    /** Bytes from the length prefix's start the check needs (4 + the header's size). */
    headerBytes: number,
    check: FrameCheck,
    startInsideStream: boolean,
    maxFrameSize = DEFAULT_MAX_FRAME_SIZE,
  ) {
    this.#maxFrameSize = maxFrameSize;
    this.#check = check;
    this.#headerBytes = headerBytes;
    this.#sink = sink;
    this.#searching = startInsideStream;
    if (startInsideStream) this.#searchReason = 'the capture began inside a frame';
  }

  /** Bytes held while waiting for the rest of a frame. */
  get buffered(): number {
    return this.#filled + this.#prefix.length + this.#scanTail.length;
  }

  data(bytes: Uint8Array, timeUs: number): void {
    if (this.#searching) {
      this.#search(bytes, timeUs);
      return;
    }
    let p = 0;
    const n = bytes.length;
    while (p < n) {
      const partial = this.#partial;
      if (partial !== undefined) {
        const take = Math.min(partial.length - this.#filled, n - p);
        partial.set(bytes.subarray(p, p + take), this.#filled);
        this.#filled += take;
        p += take;
        if (this.#filled === partial.length) {
          this.#partial = undefined;
          this.#filled = 0;
          this.#sink.frame(partial, timeUs);
        }
        continue;
      }
      if (this.#prefix.length > 0 || n - p < 4) {
        const need = 4 - this.#prefix.length;
        const take = Math.min(need, n - p);
        const joined = new Uint8Array(this.#prefix.length + take);
        joined.set(this.#prefix);
        joined.set(bytes.subarray(p, p + take), this.#prefix.length);
        p += take;
        if (joined.length < 4) {
          this.#prefix = joined;
          continue;
        }
        this.#prefix = EMPTY;
        const length = int32(joined, 0);
        if (!this.#lengthOk(length)) {
          this.#startSearch(`bad length prefix ${length}`, joined, bytes.subarray(p), timeUs);
          return;
        }
        this.#partial = new Uint8Array(4 + length);
        this.#partial.set(joined);
        this.#filled = 4;
        if (length === 0) {
          this.#partial = undefined;
          this.#filled = 0;
          this.#sink.frame(joined, timeUs);
        }
        continue;
      }
      const length = int32(bytes, p);
      if (!this.#lengthOk(length)) {
        this.#startSearch(`bad length prefix ${length}`, EMPTY, bytes.subarray(p), timeUs);
        return;
      }
      const size = 4 + length;
      if (n - p >= size) {
        this.#sink.frame(bytes.subarray(p, p + size), timeUs);
        p += size;
      } else {
        this.#partial = new Uint8Array(size);
        this.#partial.set(bytes.subarray(p));
        this.#filled = n - p;
        p = n;
      }
    }
  }

  /** Bytes were lost: a frame in progress is dropped and framing resumes at the next plausible frame. */
  gap(timeUs: number): void {
    const dropped = this.#filled + this.#prefix.length;
    this.#partial = undefined;
    this.#filled = 0;
    this.#prefix = EMPTY;
    if (dropped > 0) this.#sink.skipped(dropped, 'a frame cut by the gap', timeUs);
    if (!this.#searching) {
      this.#searching = true;
      this.#searchReason = 'resynchronising after the gap';
    }
  }

  /** The stream ended: reports a frame left incomplete. */
  finish(timeUs: number): void {
    const left = this.#filled + this.#prefix.length;
    if (left > 0) {
      const of = this.#partial === undefined ? '' : ` of ${this.#partial.length}`;
      this.#sink.skipped(left, `the stream ended inside a frame (${left}${of} byte(s) seen)`, timeUs);
    }
    if (this.#searching && this.#skippedBytes + this.#scanTail.length > 0) {
      this.#sink.skipped(this.#skippedBytes + this.#scanTail.length, `${this.#searchReason}: no frame start found before the end`, timeUs);
    }
    this.#partial = undefined;
    this.#filled = 0;
    this.#prefix = EMPTY;
    this.#scanTail = EMPTY;
    this.#skippedBytes = 0;
  }

  #lengthOk(length: number): boolean {
    return length >= 0 && length <= this.#maxFrameSize;
  }

  #startSearch(reason: string, head: Uint8Array, rest: Uint8Array, timeUs: number): void {
    this.#searching = true;
    this.#searchReason = reason;
    // The bad prefix itself is not a frame start: resume scanning one byte after it.
    const joined = new Uint8Array(head.length + rest.length);
    joined.set(head);
    joined.set(rest, head.length);
    this.#skippedBytes += 1;
    this.#search(joined.subarray(1), timeUs);
  }

  #search(bytes: Uint8Array, timeUs: number): void {
    let b = bytes;
    if (this.#scanTail.length > 0) {
      b = new Uint8Array(this.#scanTail.length + bytes.length);
      b.set(this.#scanTail);
      b.set(bytes, this.#scanTail.length);
    }
    const need = this.#headerBytes;
    const last = b.length - need;
    for (let at = 0; at <= last; at++) {
      if (this.#lengthOk(int32(b, at)) && this.#check(b, at)) {
        const skipped = this.#skippedBytes + at;
        if (skipped > 0) this.#sink.skipped(skipped, this.#searchReason, timeUs);
        this.#searching = false;
        this.#scanTail = EMPTY;
        this.#skippedBytes = 0;
        this.data(b.subarray(at), timeUs);
        return;
      }
    }
    const keep = Math.min(b.length, need - 1);
    this.#skippedBytes += b.length - keep;
    this.#scanTail = b.slice(b.length - keep);
  }
}
