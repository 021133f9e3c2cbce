/**
 * The session and the request → reply latency of one connection, from its frames in wire order: what every source
 * puts on its FrameEvents (`sessionId`, `latencyMs`), so no sink matches replies to requests again for that.
 * (The analyzer keeps its own pending requests: it needs their bodies, not only their times.)
 */

import type { ConnectResponse, DescribedFrame } from '../../protocol/index.js';

/** The handshake has no xid; its time is kept under a key no xid can take. */
const CONNECT_KEY = Number.MIN_SAFE_INTEGER;
/** Requests remembered per connection; past this a client that never gets answers stops being timed. */
const MAX_PENDING = 100_000;

export class RequestTimes {
  /** The session, once the ConnectResponse was seen. */
  sessionId: bigint | undefined;
  /** Capture time of each unanswered request by xid; a FIFO per xid because pings (xid -2) may overlap. */
  private readonly sent = new Map<number, number | number[]>();

  /**
   * Notes a frame captured at `timeUs`; returns the latency in ms of a reply (or ConnectResponse) to a request it
   * saw. A request whose body did not decode still counts: its reply carries its xid.
   */
  observe(f: DescribedFrame, timeUs: number): number | undefined {
    switch (f.kind) {
      case 'connect-request':
        this.remember(CONNECT_KEY, timeUs);
        return undefined;
      case 'connect-response':
        if (f.error === undefined && f.decoded !== undefined) this.sessionId = (f.decoded as ConnectResponse).sessionId;
        return this.since(CONNECT_KEY, timeUs);
      case 'request':
        if (f.xid !== undefined) this.remember(f.xid, timeUs);
        return undefined;
      case 'reply':
        return f.xid === undefined ? undefined : this.since(f.xid, timeUs);
      default:
        return undefined;
    }
  }

  private remember(key: number, timeUs: number): void {
    const had = this.sent.get(key);
    if (had === undefined) {
      if (this.sent.size < MAX_PENDING) this.sent.set(key, timeUs);
    } else if (typeof had === 'number') this.sent.set(key, [had, timeUs]);
    else had.push(timeUs);
  }

  private since(key: number, timeUs: number): number | undefined {
    const had = this.sent.get(key);
    if (had === undefined) return undefined;
    let start: number;
    if (typeof had === 'number') {
      start = had;
      this.sent.delete(key);
    } else {
      start = had.shift()!;
      if (had.length === 1) this.sent.set(key, had[0]!);
    }
    return (timeUs - start) / 1000;
  }
}
