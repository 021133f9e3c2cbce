/**
 * Which TCP connections of a packet capture are ZooKeeper when no port was given: a TestingServer listens on a
 * random port, so the server end is found from the shape of the first bytes each way instead of a port number.
 * A connection is ZooKeeper when its client's first frame is a ConnectRequest, or (a capture that began
 * mid-session) a plausible request header answered by a reply header with the same xid. The server port of the
 * first such connection becomes a known port: every connection to it, held back or later, goes to the
 * ConnectionTable, which decodes it as if `--port` had named it.
 *
 * Until a connection is decided its segments are held (copied: the packet decoder reuses its buffers), within
 * bounds per connection and in all, so a capture of bulk traffic costs no more memory than a few packets per
 * connection. A connection that stays undecided past those bounds, or whose bytes rule ZooKeeper out, is ignored.
 */

import { DEFAULT_MAX_FRAME_SIZE, errorName, Xid } from '../../protocol/index.js';
import { int32 } from '../../protocol/bytes.js';
import { CONNECT_REQUEST_BYTES, looksLikeConnectRequestAt, looksLikeRequestHead, REPLY_HEAD_BYTES, REQUEST_HEAD_BYTES } from './frame-shape.js';
import { TcpFlag, type TcpSegment } from './ip-tcp.js';

/** Segments held per undecided connection: the handshake and a few request/reply exchanges decide any ZooKeeper one. */
const MAX_HELD_SEGMENTS = 64;
/** Payload bytes held per undecided connection. */
const MAX_HELD_BYTES = 256 * 1024;
/** Undecided connections at once; beyond it the oldest is given up. */
const MAX_PENDING = 4096;
/** Connections ruled out, remembered so their later packets cost one lookup; forgotten all at once when full. */
const MAX_REJECTED = 65536;
/** Bytes of each direction's start that the decision looks at. */
const HEAD = CONNECT_REQUEST_BYTES;

type End = 'a' | 'b';

/** The first bytes of one direction, in TCP order (out-of-order data is not waited for: it only delays a verdict). */
class Head {
  readonly bytes = new Uint8Array(HEAD);
  filled = 0;
  #next: number | undefined;
  #cut = false;

  syn(seq: number): void {
    this.#next = (seq + 1) >>> 0;
  }

  payload(seg: TcpSegment): void {
    if (seg.payloadLen === 0 && seg.missingTail === 0) return;
    this.#next ??= seg.seq;
    if (this.#cut || seg.seq !== this.#next) return;
    const take = Math.min(HEAD - this.filled, seg.payloadLen);
    this.bytes.set(seg.buf.subarray(seg.payloadStart, seg.payloadStart + take), this.filled);
    this.filled += take;
    this.#next = (seg.seq + seg.payloadLen + seg.missingTail) >>> 0;
    if (seg.missingTail > 0) this.#cut = true;
  }
}

interface Held {
  seg: TcpSegment;
  timeUs: number;
  order: number;
}

interface Flow {
  aIp: number | string;
  aPort: number;
  bPort: number;
  /** The end that sent a SYN without ACK, when the capture has it. */
  client: End | undefined;
  heads: Record<End, Head>;
  held: Held[];
  heldBytes: number;
}

type Verdict = 'zookeeper' | 'not' | 'wait';

/** Is `req` (a client's first bytes) answered by `rep` (the server's) the way ZooKeeper talks? */
function verdict(req: Head, rep: Head): Verdict {
  if (req.filled < 4) return 'wait';
  const len = int32(req.bytes, 0);
  if (len === 44 || len === 45) {
    if (req.filled < CONNECT_REQUEST_BYTES) return 'wait';
    if (looksLikeConnectRequestAt(req.bytes, 0)) return 'zookeeper';
  }
  if (req.filled < REQUEST_HEAD_BYTES) return 'wait';
  if (len > DEFAULT_MAX_FRAME_SIZE || !looksLikeRequestHead(req.bytes, 0)) return 'not';
  if (rep.filled < REPLY_HEAD_BYTES) return 'wait';
  const xid = int32(rep.bytes, 4);
  const answers = xid === int32(req.bytes, 4) || (xid === Xid.notification && int32(rep.bytes, 8) === -1);
  return answers && int32(rep.bytes, 0) >= 16 && errorName(int32(rep.bytes, 16)) !== undefined ? 'zookeeper' : 'not';
}

function copySegment(seg: TcpSegment): TcpSegment {
  // The addresses come before the payload in the packet: one copy from the addresses to the payload's end.
  const from = seg.addrOffset;
  return { ...seg, buf: seg.buf.slice(from, seg.payloadStart + seg.payloadLen), addrOffset: 0, payloadStart: seg.payloadStart - from };
}

export class PortFinder {
  readonly #ports: Set<number>;
  readonly #deliver: (seg: TcpSegment, timeUs: number) => void;
  readonly #pending = new Map<string, Flow>();
  readonly #rejected = new Set<string>();
  /** Server-side ports of the connections ruled out (for the note when no ZooKeeper was found). */
  readonly #otherPorts = new Set<number>();
  #otherCount = 0;
  /** Whether any segment reached the ConnectionTable (a port was known or recognised). */
  #delivered = false;
  #order = 0;

  constructor(
    /** The known ZooKeeper ports: grows as connections are recognised. Shared with the ConnectionTable. */
    ports: Set<number>,
    /** Where the segments of ZooKeeper connections go (the ConnectionTable). */
    deliver: (seg: TcpSegment, timeUs: number) => void,
  ) {
    this.#ports = ports;
    this.#deliver = deliver;
  }

  segment(seg: TcpSegment, timeUs: number): void {
    if (this.#ports.has(seg.dstPort) || this.#ports.has(seg.srcPort)) {
      this.#delivered = true;
      this.#deliver(seg, timeUs);
      return;
    }
    const src = `${seg.srcIp}:${seg.srcPort}`;
    const dst = `${seg.dstIp}:${seg.dstPort}`;
    const key = src < dst ? `${src}>${dst}` : `${dst}>${src}`;
    if (this.#rejected.has(key)) return;
    let flow = this.#pending.get(key);
    if (flow === undefined) {
      if (this.#pending.size >= MAX_PENDING) this.#giveUp(this.#pending.keys().next().value!);
      flow = { aIp: seg.srcIp, aPort: seg.srcPort, bPort: seg.dstPort, client: undefined, heads: { a: new Head(), b: new Head() }, held: [], heldBytes: 0 };
      this.#pending.set(key, flow);
    }
    const end: End = seg.srcIp === flow.aIp && seg.srcPort === flow.aPort ? 'a' : 'b';
    const head = flow.heads[end];
    if ((seg.flags & TcpFlag.syn) !== 0) {
      head.syn(seg.seq);
      if ((seg.flags & TcpFlag.ack) === 0) flow.client = end;
    }
    head.payload(seg);
    flow.held.push({ seg: copySegment(seg), timeUs, order: this.#order++ });
    flow.heldBytes += seg.payloadLen;
    this.#decide(key, flow);
  }

  /**
   * The capture ended: connections still undecided are dropped. When none was ZooKeeper, says what there was instead
   * (undefined when there was nothing, or ZooKeeper was found).
   */
  finish(): string | undefined {
    for (const key of [...this.#pending.keys()]) this.#giveUp(key);
    if (this.#delivered || this.#otherCount === 0) return undefined;
    const ports = [...this.#otherPorts].sort((x, y) => x - y);
    const shown = ports.length > 8 ? `${ports.slice(0, 8).join(', ')}…` : ports.join(', ');
    return `none of its ${this.#otherCount} TCP connection(s) looks like ZooKeeper (ports ${shown}); --port P decodes a port anyway`;
  }

  #decide(key: string, flow: Flow): void {
    const clients: End[] = flow.client === undefined ? ['a', 'b'] : [flow.client];
    let waiting = false;
    for (const c of clients) {
      const v = verdict(flow.heads[c], flow.heads[c === 'a' ? 'b' : 'a']);
      if (v === 'zookeeper') {
        this.#found(c === 'a' ? flow.bPort : flow.aPort);
        return;
      }
      if (v === 'wait') waiting = true;
    }
    if (!waiting || flow.held.length >= MAX_HELD_SEGMENTS || flow.heldBytes >= MAX_HELD_BYTES) this.#giveUp(key);
  }

  /** `port` is a ZooKeeper server port: every connection held back on it is delivered, in capture order. */
  #found(port: number): void {
    this.#ports.add(port);
    const held: Held[] = [];
    for (const [key, flow] of this.#pending) {
      if (flow.aPort !== port && flow.bPort !== port) continue;
      held.push(...flow.held);
      this.#pending.delete(key);
    }
    held.sort((x, y) => x.order - y.order);
    this.#delivered = true;
    for (const h of held) this.#deliver(h.seg, h.timeUs);
  }

  #giveUp(key: string): void {
    const flow = this.#pending.get(key);
    this.#pending.delete(key);
    if (flow === undefined) return;
    this.#otherCount++;
    // The server end is the one that did not send the SYN; without one, the lower port is the likelier service.
    this.#otherPorts.add(flow.client === 'a' ? flow.bPort : flow.client === 'b' ? flow.aPort : Math.min(flow.aPort, flow.bPort));
    if (this.#otherPorts.size > 1024) this.#otherPorts.clear();
    if (this.#rejected.size >= MAX_REJECTED) this.#rejected.clear();
    this.#rejected.add(key);
  }
}
