/**
 * The TCP connections of a packet capture that talk to a ZooKeeper port: each direction reassembled
 * (tcp-reassembly.ts), framed (zk-framer.ts) and decoded by one ConversationDecoder per connection, turned into
 * CaptureEvents. Memory is bounded by the open connections: a closed one is forgotten.
 */

import { ConversationDecoder, detectFourLetterWord, errorName, Xid, type DescribedFrame, type Direction } from '../../protocol/index.js';
import { int32 } from '../../protocol/bytes.js';
import { CONNECT_REQUEST_BYTES, looksLikeConnectRequestAt, looksLikeRequestHead, REPLY_HEAD_BYTES, REQUEST_HEAD_BYTES } from './frame-shape.js';
import type { CaptureConnection, CaptureEvent } from './events.js';
import { formatEndpoint, TcpFlag, type TcpSegment } from './ip-tcp.js';
import { RequestTimes } from './request-times.js';
import { TcpDirection } from './tcp-reassembly.js';
import { ZkFramer } from './zk-framer.js';

/** Longest four-letter-word exchange kept (the text is emitted when the connection closes). */
const MAX_FOUR_LETTER_TEXT = 4 * 1024 * 1024;
/** How many requests a gap may swallow and still let the next one be recognised by its xid. */
const MAX_XIDS_IN_A_GAP = 100_000;
/** Reuse counters kept per address pair before the oldest are forgotten (they only number reused pairs). */
const MAX_PAIR_COUNTERS = 65536;

/** A ConnectRequest's shape: the whole frame (see frame-shape.ts). */
function looksLikeConnectRequest(frame: Uint8Array): boolean {
  return frame.length >= CONNECT_REQUEST_BYTES && looksLikeConnectRequestAt(frame, 0);
}

class Side {
  readonly #owner: TrackedConnection;
  readonly tcp: TcpDirection;
  framer: ZkFramer;
  fin = false;
  /** After a gap a reply must answer a request seen before; at a mid-stream start any plausible header will do. */
  strict = false;
  text: Uint8Array[] = [];
  textBytes = 0;
  textTime = 0;

  constructor(
    owner: TrackedConnection,
    readonly dir: Direction,
    midStream: boolean,
  ) {
    this.#owner = owner;
    this.tcp = new TcpDirection({
      data: (bytes, t) => owner.data(this, bytes, t),
      gap: (missing, reason, t) => owner.gap(this, missing, reason, t),
    });
    this.framer = this.newFramer(midStream);
  }

  newFramer(midStream: boolean): ZkFramer {
    const owner = this.#owner;
    const sink = {
      frame: (bytes: Uint8Array, t: number) => owner.frame(this, bytes, t),
      skipped: (n: number, reason: string, t: number) => owner.emitGap(this.dir, n, `${n} byte(s) skipped: ${reason}`, t),
    };
    return this.dir === 'c2s'
      ? new ZkFramer(sink, REQUEST_HEAD_BYTES, (b, at) => this.#plausibleRequest(b, at), midStream)
      : new ZkFramer(sink, REPLY_HEAD_BYTES, (b, at) => this.#plausibleReply(b, at), midStream);
  }

  #plausibleRequest(b: Uint8Array, at: number): boolean {
    const len = int32(b, at);
    const xid = int32(b, at + 4);
    // A ConnectRequest (protocol version 0 where a request has its xid, which is never 0) starts a capture that
    // missed only the SYN.
    if (!this.strict && this.#owner.requestsSeen === 0 && (len === 44 || len === 45) && xid === 0) return true;
    if (!looksLikeRequestHead(b, at)) return false;
    if (xid <= 0) return true;
    // Clients number their requests 1, 2, 3…: after a gap the next one is a little above the last one seen.
    const last = this.#owner.lastRequestXid;
    return !this.strict || last === undefined || (xid > last && xid <= last + MAX_XIDS_IN_A_GAP);
  }

  #plausibleReply(b: Uint8Array, at: number): boolean {
    const len = int32(b, at);
    const xid = int32(b, at + 4);
    const zxidHigh = int32(b, at + 8);
    const err = int32(b, at + 16);
    if (len < 16 || errorName(err) === undefined) return false;
    if (xid === Xid.notification) return err === 0 && zxidHigh === -1 && int32(b, at + 12) === -1;
    if (xid === Xid.ping || xid === Xid.auth || xid === Xid.setWatches) return true;
    if (this.#owner.conv.awaitsReply(xid)) return true;
    return !this.strict && xid > 0 && zxidHigh >= 0;
  }
}

export class TrackedConnection {
  #midStream: boolean;
  readonly #out: CaptureEvent[];
  readonly conn: CaptureConnection;
  conv: ConversationDecoder;
  readonly c2s: Side;
  readonly s2c: Side;
  #opened = false;
  #framesSeen = 0;
  /** Requests decoded on this connection, and the highest xid among them (to resynchronise after a gap). */
  requestsSeen = 0;
  lastRequestXid: number | undefined;
  #mode: 'zk' | '4lw' = 'zk';
  readonly #times = new RequestTimes();
  closed = false;

  constructor(
    out: CaptureEvent[],
    id: string,
    client: string,
    server: string,
    midStream: boolean,
  ) {
    this.#midStream = midStream;
    this.#out = out;
    this.conn = { id, client, server };
    this.conv = new ConversationDecoder({ midStream });
    this.c2s = new Side(this, 'c2s', midStream);
    this.s2c = new Side(this, 's2c', midStream);
  }

  #open(timeUs: number): void {
    if (this.#opened) return;
    this.#opened = true;
    this.#out.push({ type: 'open', conn: this.conn, timeUs, midStream: this.#midStream });
  }

  data(side: Side, bytes: Uint8Array, timeUs: number): void {
    if (!this.#midStream && this.#framesSeen === 0 && side.dir === 'c2s' && this.#mode === 'zk' && detectFourLetterWord(bytes) !== undefined) {
      this.#mode = '4lw';
    }
    if (this.#mode === '4lw') {
      if (side.textBytes + bytes.length > MAX_FOUR_LETTER_TEXT) return;
      if (side.textBytes === 0) side.textTime = timeUs;
      side.text.push(new Uint8Array(bytes)); // a copy, also of a Node Buffer (whose slice() is a view)
      side.textBytes += bytes.length;
      return;
    }
    side.framer.data(bytes, timeUs);
  }

  gap(side: Side, missing: number, reason: string, timeUs: number): void {
    this.emitGap(side.dir, missing, reason, timeUs);
    side.strict = true;
    side.framer.gap(timeUs);
    this.conv.resumeAfterGap();
  }

  emitGap(dir: Direction, missing: number | undefined, reason: string, timeUs: number): void {
    this.#open(timeUs);
    this.#out.push({ type: 'gap', conn: this.conn, timeUs, dir, missingBytes: missing, reason });
  }

  frame(side: Side, bytes: Uint8Array, timeUs: number): void {
    if (this.#midStream && this.#framesSeen === 0 && side.dir === 'c2s' && looksLikeConnectRequest(bytes)) {
      // The capture missed only the SYN: the conversation starts here after all.
      this.#midStream = false;
      this.conv = new ConversationDecoder();
      this.s2c.framer = this.s2c.newFramer(false);
    }
    this.#framesSeen++;
    this.#open(timeUs);
    const frame = this.conv.decode(side.dir, bytes);
    if (side.dir === 'c2s') {
      this.requestsSeen++;
      if (frame.kind === 'request' && frame.xid !== undefined && frame.xid > 0 && (this.lastRequestXid === undefined || frame.xid > this.lastRequestXid)) {
        this.lastRequestXid = frame.xid;
      }
    }
    this.#push(side, frame, bytes, timeUs);
  }

  #push(side: Side, frame: DescribedFrame, bytes: Uint8Array, timeUs: number): void {
    const latencyMs = this.#times.observe(frame, timeUs);
    this.#out.push({ type: 'frame', conn: this.conn, timeUs, dir: side.dir, frame, size: bytes.length, bytes, sessionId: this.#times.sessionId, latencyMs });
  }

  /** Ends the connection: holes become gaps, partial frames are reported, then the close event. */
  close(reason: 'fin' | 'rst' | 'capture-end', timeUs: number): void {
    if (this.closed) return;
    this.closed = true;
    for (const side of [this.c2s, this.s2c]) side.tcp.finish(timeUs);
    if (this.#mode === '4lw') {
      for (const side of [this.c2s, this.s2c]) {
        if (side.textBytes === 0) continue;
        const text = new Uint8Array(side.textBytes);
        let at = 0;
        for (const part of side.text) {
          text.set(part, at);
          at += part.length;
        }
        this.#framesSeen++;
        this.#open(side.textTime);
        this.#push(side, this.conv.decode(side.dir, text), text, side.textTime);
      }
    }
    for (const side of [this.c2s, this.s2c]) side.framer.finish(timeUs);
    this.#open(timeUs);
    this.#out.push({ type: 'close', conn: this.conn, timeUs, reason });
  }
}

interface Entry {
  clientIp: number | string;
  serverIp: number | string;
  conn: TrackedConnection;
}

/** Routes TCP segments to their connection; `ports` are the server ends. */
export class ConnectionTable {
  readonly #ports: ReadonlySet<number>;
  readonly #out: CaptureEvent[];
  /** Open connections by `clientPort << 16 | serverPort`, then by addresses (no string built per packet). */
  readonly #open = new Map<number, Entry[]>();
  #openCount = 0;
  readonly #pairUses = new Map<string, number>();
  #lastTimeUs = 0;

  constructor(
    out: CaptureEvent[],
    ports: ReadonlySet<number>,
  ) {
    this.#ports = ports;
    this.#out = out;}

  /** Connections currently tracked (for memory checks). */
  get size(): number {
    return this.#openCount;
  }

  #find(ports: number, clientIp: number | string, serverIp: number | string): Entry | undefined {
    const bucket = this.#open.get(ports);
    if (bucket === undefined) return undefined;
    for (const e of bucket) if (e.clientIp === clientIp && e.serverIp === serverIp) return e;
    return undefined;
  }

  #remove(ports: number, entry: Entry): void {
    const bucket = this.#open.get(ports);
    if (bucket === undefined) return;
    const i = bucket.indexOf(entry);
    if (i < 0) return;
    this.#openCount--;
    if (bucket.length === 1) this.#open.delete(ports);
    else bucket.splice(i, 1);
  }

  segment(seg: TcpSegment, timeUs: number): void {
    let dir: Direction;
    if (this.#ports.has(seg.dstPort)) dir = 'c2s';
    else if (this.#ports.has(seg.srcPort)) dir = 's2c';
    else return;
    this.#lastTimeUs = timeUs;
    const c2s = dir === 'c2s';
    const ports = c2s ? seg.srcPort * 65536 + seg.dstPort : seg.dstPort * 65536 + seg.srcPort;
    const clientIp = c2s ? seg.srcIp : seg.dstIp;
    const serverIp = c2s ? seg.dstIp : seg.srcIp;
    const flags = seg.flags;
    let entry = this.#find(ports, clientIp, serverIp);
    const clientSyn = c2s && (flags & (TcpFlag.syn | TcpFlag.ack)) === TcpFlag.syn;
    if (entry !== undefined && clientSyn && (entry.conn.c2s.fin || entry.conn.s2c.fin)) {
      // A new connection on an address pair whose previous one was closing.
      entry.conn.close('fin', timeUs);
      this.#remove(ports, entry);
      entry = undefined;
    }
    if (entry === undefined) {
      const syn = (flags & TcpFlag.syn) !== 0;
      if (!syn && seg.payloadLen + seg.missingTail === 0) return; // a stray ACK/FIN/RST of a connection already gone
      entry = { clientIp, serverIp, conn: this.#create(seg, dir, !syn) };
      const bucket = this.#open.get(ports);
      if (bucket === undefined) this.#open.set(ports, [entry]);
      else bucket.push(entry);
      this.#openCount++;
    }
    const c = entry.conn;
    const side = dir === 'c2s' ? c.c2s : c.s2c;
    const other = dir === 'c2s' ? c.s2c : c.c2s;
    // The acknowledgement first: it says what the sender had received before it sent this packet's payload (a
    // reply's packet acknowledges its request, whose loss must be known before the reply is decoded).
    if ((flags & TcpFlag.ack) !== 0) other.tcp.acknowledged(seg.ack, timeUs);
    if ((flags & TcpFlag.syn) !== 0) side.tcp.syn(seg.seq);
    if (seg.payloadLen + seg.missingTail > 0) {
      side.tcp.segment(seg.seq, seg.buf.subarray(seg.payloadStart, seg.payloadStart + seg.payloadLen), seg.missingTail, timeUs);
    }
    if ((flags & TcpFlag.fin) !== 0) side.tcp.fin((seg.seq + seg.payloadLen + seg.missingTail) >>> 0);
    if ((flags & TcpFlag.rst) !== 0) {
      c.close('rst', timeUs);
      this.#remove(ports, entry);
    } else if ((flags & TcpFlag.fin) !== 0) {
      side.fin = true;
      if (other.fin) {
        c.close('fin', timeUs);
        this.#remove(ports, entry);
      }
    }
  }

  /** The capture ended: every connection still open is closed with reason `capture-end`. */
  finish(): void {
    for (const bucket of this.#open.values()) for (const e of bucket) e.conn.close('capture-end', this.#lastTimeUs);
    this.#open.clear();
    this.#openCount = 0;
  }

  #create(seg: TcpSegment, dir: Direction, midStream: boolean): TrackedConnection {
    const client = formatEndpoint(seg, dir === 'c2s' ? 'src' : 'dst');
    const server = formatEndpoint(seg, dir === 'c2s' ? 'dst' : 'src');
    const pair = `${client}>${server}`;
    const uses = (this.#pairUses.get(pair) ?? 0) + 1;
    if (this.#pairUses.size >= MAX_PAIR_COUNTERS && uses === 1) this.#pairUses.clear();
    this.#pairUses.set(pair, uses);
    return new TrackedConnection(this.#out, uses > 1 ? `${pair}#${uses}` : pair, client, server, midStream);
  }
}
