/**
 * One direction's reassembled bytes cut into ZooKeeper frames (4-byte length prefix, then the payload). The cutting
 * is the protocol's FrameDecoder (the one frame splitter of the codebase); what is the capture's own is here: after a
 * gap — or when the capture began in the middle of a connection — it resynchronises: it skips to the next offset
 * where a length prefix within the frame-size limit is followed by a plausible header (see `FrameCheck`), and it
 * reports what it skipped.
 *
 * Frames come out, prefix included, as views of the input where they lie inside one delivery, else in a buffer of
 * their own: the bytes behind a frame are never overwritten, but do not keep a frame past the callback that
 * received it.
 */

import { FrameDecoder, DEFAULT_MAX_FRAME_SIZE } from '../../protocol/index.js';
import { int32 } from '../../protocol/bytes.js';

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
  readonly #frames: FrameDecoder;
  /**
   * Bytes the decoder needs at least before it can answer anything but need-more (the rest of the length prefix, or
   * of the frame once its prefix is known).
   */
  #needed = 4;
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
    this.#frames = new FrameDecoder({ maxFrameSize, keepPrefix: true });
    this.#check = check;
    this.#headerBytes = headerBytes;
    this.#sink = sink;
    this.#searching = startInsideStream;
    if (startInsideStream) this.#searchReason = 'the capture began inside a frame';
  }

  /** Bytes held while waiting for the rest of a frame. */
  get buffered(): number {
    return this.#frames.buffered + this.#scanTail.length;
  }

  /** The next delivery; it may be a view of the capture buffer, which moves on after this call. */
  data(bytes: Uint8Array, timeUs: number): void {
    if (this.#searching) {
      this.#search(bytes, timeUs);
      return;
    }
    const frames = this.#frames;
    if (bytes.length < this.#needed) {
      // Nothing completes: keep a copy and move on (so a big frame is copied once, not once per delivery).
      // new Uint8Array copies; a Node Buffer's slice() would not.
      frames.push(new Uint8Array(bytes));
      this.#needed -= bytes.length;
      return;
    }
    frames.push(bytes);
    for (;;) {
      const r = frames.next();
      if (r.kind === 'frame') this.#sink.frame(r.payload, timeUs);
      else if (r.kind === 'need-more') {
        this.#needed = r.needed;
        // What is left lies in this delivery (and at most three bytes of an earlier one): own it.
        if (frames.buffered > 0) frames.push(frames.drain());
        return;
      } else {
        this.#needed = 4;
        this.#startSearch(`bad length prefix ${r.error.length}`, frames.drain(), timeUs);
        return;
      }
    }
  }

  /** Bytes were lost: a frame in progress is dropped and framing resumes at the next plausible frame. */
  gap(timeUs: number): void {
    const dropped = this.#frames.drain().length;
    this.#needed = 4;
    if (dropped > 0) this.#sink.skipped(dropped, 'a frame cut by the gap', timeUs);
    if (!this.#searching) {
      this.#searching = true;
      this.#searchReason = 'resynchronising after the gap';
    }
  }

  /** The stream ended: reports a frame left incomplete. */
  finish(timeUs: number): void {
    const left = this.#frames.drain().length;
    if (left > 0) {
      // With its prefix read, the frame's size is known: what is held plus what it still needed.
      const of = left < 4 ? '' : ` of ${left + this.#needed}`;
      this.#sink.skipped(left, `the stream ended inside a frame (${left}${of} byte(s) seen)`, timeUs);
    }
    if (this.#searching && this.#skippedBytes + this.#scanTail.length > 0) {
      this.#sink.skipped(this.#skippedBytes + this.#scanTail.length, `${this.#searchReason}: no frame start found before the end`, timeUs);
    }
    this.#needed = 4;
    this.#scanTail = EMPTY;
    this.#skippedBytes = 0;
  }

  #lengthOk(length: number): boolean {
    return length >= 0 && length <= this.#maxFrameSize;
  }

  /** `held` starts with a bad length prefix: scanning resumes one byte after its start. */
  #startSearch(reason: string, held: Uint8Array, timeUs: number): void {
    this.#searching = true;
    this.#searchReason = reason;
    this.#skippedBytes += 1;
    this.#search(held.subarray(1), timeUs);
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
    this.#scanTail = new Uint8Array(b.subarray(b.length - keep));
  }
}
