/**
 * The session and the request → reply latency of one connection, from its frames in wire order: what every source
 * puts on its FrameEvents (`sessionId`, `latencyMs`), so no sink matches replies to requests again for that.
 * (The analyzer keeps its own pending requests: it needs their bodies, not only their times.) A client reusing an
 * xid before its reply (overlapping pings) is matched oldest first.
 */

import type { ConnectResponse, DescribedFrame } from '../../protocol/index.js';

/** Requests remembered per connection; past this the oldest stop being timed (a client that never gets answers). */
const MAX_PENDING = 100_000;

export class RequestTimes {
  /** The session, once the ConnectResponse was seen. */
  sessionId: bigint | undefined;
  #connectUs: number | undefined;
  /**
   * Unanswered requests in the order they were sent: xids and capture times side by side in [head, tail). ZooKeeper
   * answers in request order (pings included), so a reply matches the oldest unless replies were lost: a FIFO costs
   * two array writes per request and an index bump per reply, where a map by xid cost a hash insert and delete per
   * frame. The arrays keep their capacity when drained (a connection usually has one request out at a time).
   */
  readonly #xids: number[] = [];
  readonly #times: number[] = [];
  #head = 0;
  #tail = 0;

  /**
   * Notes a frame captured at `timeUs`; returns the latency in ms of a reply (or ConnectResponse) to a request it
   * saw. A request whose body did not decode still counts: its reply carries its xid.
   */
  observe(f: DescribedFrame, timeUs: number): number | undefined {
    switch (f.kind) {
      case 'request':
        if (f.xid !== undefined) this.#remember(f.xid, timeUs);
        return undefined;
      case 'reply':
        return f.xid === undefined ? undefined : this.#since(f.xid, timeUs);
      case 'connect-request':
        this.#connectUs = timeUs;
        return undefined;
      case 'connect-response': {
        if (f.error === undefined && f.decoded !== undefined) this.sessionId = (f.decoded as ConnectResponse).sessionId;
        const sent = this.#connectUs;
        this.#connectUs = undefined;
        return sent === undefined ? undefined : (timeUs - sent) / 1000;
      }
      default:
        return undefined;
    }
  }

  #remember(xid: number, timeUs: number): void {
    if (this.#tail - this.#head >= MAX_PENDING) this.#head++;
    if (this.#tail === this.#xids.length && this.#head > 0) {
      // Full at the end with room at the front: move the live part down once (amortised by the doubling below).
      this.#xids.copyWithin(0, this.#head, this.#tail);
      this.#times.copyWithin(0, this.#head, this.#tail);
      this.#tail -= this.#head;
      this.#head = 0;
    }
    this.#xids[this.#tail] = xid;
    this.#times[this.#tail] = timeUs;
    this.#tail++;
  }

  #since(xid: number, timeUs: number): number | undefined {
    const xids = this.#xids;
    let i = this.#head;
    while (i < this.#tail && xids[i] !== xid) i++;
    if (i === this.#tail) return undefined;
    const sent = this.#times[i]!;
    // The server answers in request order, so the requests before this one will get no reply: their replies were
    // lost from the capture, or there never is one (a standalone check). Dropping them keeps every match O(1).
    this.#head = i + 1;
    if (this.#head === this.#tail) this.#head = this.#tail = 0;
    return (timeUs - sent) / 1000;
  }
}
