/**
 * The send path: the queue of requests and auth packets not yet written, and every write the session
 * makes (the ConnectRequest, each tick's coalesced batch, pings), each one traced when tracing is on.
 *
 * Items are queued synchronously by the caller (call order is wire order) and written together in one
 * microtask once the connection is ready, through one reused writer. While disconnected they wait here;
 * the next handshake puts the resume packets (auth, setWatches) ahead of them.
 */

import type { ZooKeeperError } from '../errors.js';
import { encodeConnectRequestFrame, JuteWriter, OpCode, type ConnectRequest } from '../protocol/index.js';
import { encodeBatch, type QueueItem } from './batch.js';
import type { Connection } from './connection.js';
import type { AuthRecord, Outgoing } from './outgoing.js';
import { XidCounter } from './pending.js';
import type { Tracer } from './trace.js';

/** A ping is always the same 12 bytes: length 8, xid -2, opcode ping. */
const PING_FRAME = new Uint8Array([0, 0, 0, 8, 0xff, 0xff, 0xff, 0xfe, 0, 0, 0, OpCode.ping]);

/** What the outbox needs from its session. */
export interface OutboxHost {
  /** The session's current connection, if any. */
  connection(): Connection | undefined;
  /** For trace records. */
  sessionId(): bigint;
  /** A batch was written (the heartbeat's ping timer counts from the last write). */
  wrote(): void;
  /** An auth packet could not be encoded: its callers are told, the record forgotten. */
  rejectAuth(record: AuthRecord, err: ZooKeeperError): void;
  /** Whether a request may be written on `conn` now (see BatchContext.admit). */
  admit(conn: Connection, item: Outgoing): true | 'wait' | ZooKeeperError;
}

export class Outbox {
  #items: QueueItem[] = [];
  #flushScheduled = false;
  // ES private: the reused buffer still holds the last batch written, AuthPackets included.
  readonly #writer = new JuteWriter(4096);
  readonly #xids = new XidCounter();
  readonly #host: OutboxHost;
  readonly #tracer: Tracer | undefined;

  constructor(host: OutboxHost, tracer: Tracer | undefined) {
    this.#host = host;
    this.#tracer = tracer;
  }

  /** Queues an item; schedules the tick's write if the connection can take it now. */
  push(item: QueueItem): void {
    this.#items.push(item);
    if (this.#host.connection()?.ready === true && !this.#flushScheduled) {
      this.#flushScheduled = true;
      queueMicrotask(() => this.flush());
    }
  }

  /** Takes back a request aborted before it was written. */
  withdraw(item: Outgoing): void {
    const i = this.#items.indexOf(item);
    if (i >= 0) this.#items.splice(i, 1);
  }

  /** Puts items ahead of everything queued (the resume packets of a new handshake). */
  putFirst(items: readonly QueueItem[]): void {
    this.#items = [...items, ...this.#items];
  }

  /** Forgets queued auth packets: the next handshake re-sends every credential from the list, never twice. */
  dropAuthPackets(): void {
    this.#items = this.#items.filter((item) => !('auth' in item));
  }

  /** Empties the queue, failing every request in it (auth callers are settled by the credential list). */
  failAll(err: ZooKeeperError): void {
    const queued = this.#items;
    this.#items = [];
    for (const item of queued) if (!('auth' in item)) item.fail(err);
  }

  /** Encodes everything queued this tick into the one reused writer and hands it over in a single write. */
  flush(): void {
    this.#flushScheduled = false;
    const conn = this.#host.connection();
    const stream = conn?.stream;
    if (conn === undefined || stream === undefined || !conn.ready || this.#items.length === 0) return;
    const items = this.#items;
    this.#items = [];
    const w = this.#writer.reset();
    const frames: number[] | undefined = this.#tracer === undefined ? undefined : [];
    const held = encodeBatch(items, {
      writer: w,
      conn,
      xids: this.#xids,
      frames,
      rejectAuth: (record, err) => this.#host.rejectAuth(record, err),
      admit: (item) => this.#host.admit(conn, item),
    });
    // Held back until the server's version is known: ahead of anything queued meanwhile, order kept.
    if (held.length > 0) this.#items = [...held, ...this.#items];
    if (w.length === 0) return;
    const bytes = w.toBytes();
    stream.write(bytes);
    this.#host.wrote();
    if (frames !== undefined && this.#tracer !== undefined) {
      const id = this.#host.sessionId();
      for (let i = 0; i < frames.length; i += 2) this.#tracer.sent(bytes.subarray(frames[i], frames[i + 1]), id);
    }
  }

  /** The first frame on a new connection. */
  writeConnectRequest(conn: Connection, request: ConnectRequest): void {
    const w = this.#writer.reset();
    encodeConnectRequestFrame(w, request);
    const bytes = w.toBytes();
    conn.stream?.write(bytes);
    this.#tracer?.sent(bytes, request.sessionId);
  }

  /** A ping on the established connection, marking how many frames it follows (to spot a lost reply). */
  ping(): void {
    const conn = this.#host.connection();
    if (conn?.stream === undefined || !conn.handshakeDone) return;
    conn.pingMarks.push(conn.written);
    conn.stream.write(PING_FRAME);
    this.#tracer?.sent(PING_FRAME, this.#host.sessionId());
  }
}
