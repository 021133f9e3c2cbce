/**
 * One direction of a TCP connection put back in order: retransmitted and overlapping bytes are delivered once,
 * segments that arrive early wait (bounded), and bytes that will never come (not captured, cut by snaplen) become
 * a gap, so the reader above can resynchronise instead of waiting for ever.
 */

/** Where the reassembled bytes go. `bytes` may be a view of the capture buffer: do not keep it past the call. */
export interface StreamSink {
  data(bytes: Uint8Array, timeUs: number): void;
  gap(missingBytes: number, reason: string, timeUs: number): void;
}

interface Pending {
  seq: number;
  data: Uint8Array;
  missingTail: number;
}

/** Out-of-order bytes kept per direction before the hole in front of them is declared lost. */
export const MAX_OUT_OF_ORDER_BYTES = 1024 * 1024;

/** Signed distance a − b in TCP sequence space (RFC 1982 arithmetic). */
function seqDiff(a: number, b: number): number {
  return (a - b) | 0;
}

export class TcpDirection {
  readonly #maxEarlyBytes: number;
  readonly #sink: StreamSink;
  /** The next sequence number expected, or -1 before the first segment. */
  #next = -1;
  readonly #early: Pending[] = [];
  #earlyBytes = 0;

  constructor(
    sink: StreamSink,
    maxEarlyBytes = MAX_OUT_OF_ORDER_BYTES,
  ) {
    this.#maxEarlyBytes = maxEarlyBytes;
    this.#sink = sink;
  }

  /** Bytes waiting behind a hole. */
  get buffered(): number {
    return this.#earlyBytes;
  }

  syn(seq: number): void {
    if (this.#next === -1) this.#next = (seq + 1) >>> 0;
  }

  segment(seq: number, payload: Uint8Array, missingTail: number, timeUs: number): void {
    if (this.#next === -1) this.#next = seq;
    const d = seqDiff(seq, this.#next);
    if (d <= 0) {
      this.#apply(seq, payload, missingTail, timeUs);
      this.#drain(timeUs);
      return;
    }
    // Early: keep a copy (the capture buffer moves on), in sequence order. new Uint8Array copies a Node Buffer too,
    // whose slice() is a view.
    const entry: Pending = { seq, data: new Uint8Array(payload), missingTail };
    let i = this.#early.length;
    while (i > 0 && seqDiff(this.#early[i - 1]!.seq, seq) > 0) i--;
    this.#early.splice(i, 0, entry);
    this.#earlyBytes += payload.length;
    if (this.#earlyBytes > this.#maxEarlyBytes) this.#skipHole(`segment missing (${this.#earlyBytes} bytes arrived after it)`, timeUs);
  }

  /** A FIN at `seq` takes one sequence number (the peer acknowledges it): count it when it is in order. */
  fin(seq: number): void {
    if (this.#next !== -1 && seqDiff(seq, this.#next) === 0) this.#next = (this.#next + 1) >>> 0;
  }

  /**
   * The other side acknowledged up to `ack`: bytes before it that are still missing here reached the receiver and
   * were not captured, so that hole is final — declared now, so the replies to a lost request are not taken for
   * strays while the decoder waits.
   */
  acknowledged(ack: number, timeUs: number): void {
    if (this.#next === -1 || seqDiff(ack, this.#next) <= 0) return;
    const first = this.#early[0];
    const holeEnd = first !== undefined && seqDiff(first.seq, ack) < 0 ? first.seq : ack;
    this.#sink.gap(seqDiff(holeEnd, this.#next), 'segment missing (acknowledged, not captured)', timeUs);
    this.#next = holeEnd;
    this.#drain(timeUs);
  }

  /** The connection is over: every hole left is a gap. */
  finish(timeUs: number): void {
    while (this.#early.length > 0) this.#skipHole('segment missing (never captured)', timeUs);
  }

  #skipHole(reason: string, timeUs: number): void {
    const first = this.#early[0];
    if (first === undefined) return;
    this.#sink.gap(seqDiff(first.seq, this.#next), reason, timeUs);
    this.#next = first.seq;
    this.#drain(timeUs);
  }

  /** Delivers the part of a segment at or after `next` (seq ≤ next here). */
  #apply(seq: number, payload: Uint8Array, missingTail: number, timeUs: number): void {
    const skip = -seqDiff(seq, this.#next);
    const total = payload.length + missingTail;
    if (skip >= total) return; // a retransmission of bytes already delivered
    if (skip < payload.length) {
      this.#sink.data(skip === 0 ? payload : payload.subarray(skip), timeUs);
      this.#next = (this.#next + payload.length - skip) >>> 0;
    }
    if (missingTail > 0) {
      const missing = total - Math.max(skip, payload.length);
      this.#sink.gap(missing, 'cut by snaplen', timeUs);
      this.#next = (this.#next + missing) >>> 0;
    }
  }

  #drain(timeUs: number): void {
    while (this.#early.length > 0 && seqDiff(this.#early[0]!.seq, this.#next) <= 0) {
      const e = this.#early.shift()!;
      this.#earlyBytes -= e.data.length;
      this.#apply(e.seq, e.data, e.missingTail, timeUs);
    }
  }
}
