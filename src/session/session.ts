/**
 * The session state machine: connects over shuffled hosts, performs the handshake, pipelines requests,
 * matches replies to the FIFO head, keeps the link alive, reconnects and resumes the session, re-sends
 * auth and watches, and settles every promise on loss, expiry and close.
 *
 * Everything runs on the caller's event loop with no locks: frames of one chunk are handled one after
 * another, synchronously, so a watch notification is delivered before the reply that follows it on the
 * wire, and a watch registered by a reply exists before the next frame is read.
 */

import { clientError, withContext, ZooKeeperError } from '../errors.js';
import {
  decodeConnectResponse,
  decodeReplyHeader,
  decodeResponseBody,
  decodeWatcherEvent,
  DEFAULT_MAX_FRAME_SIZE,
  encodeConnectRequestFrame,
  ErrorCode,
  JuteReader,
  JuteWriter,
  OpCode,
  Xid,
  type ConnectResponse,
} from '../protocol/index.js';
import type { Endpoint, Transport } from '../transport/types.js';
import { systemClock, Timer, type Clock } from './clock.js';
import { encodeBatch, type QueueItem } from './batch.js';
import { Connection } from './connection.js';
import { HostRing } from './connect-string.js';
import { Heartbeat } from './heartbeat.js';
import type { AuthRecord, Outgoing, Reply, RequestSpec } from './outgoing.js';
import { XidCounter } from './pending.js';
import { isConnectedState, StateMachine, type SessionState } from './state.js';
import { defaultReconnectDelay, timingFor, type ReconnectDelay, type SessionTiming } from './timing.js';
import { Tracer, type FrameListener } from './trace.js';
import { eventTypeName, setWatchesBatches, WatchRegistry } from './watches.js';

export interface SessionOptions {
  readonly hosts: readonly Endpoint[];
  readonly transport: Transport;
  /** Requested session timeout (ms); the server clamps it to [2, 20] ticks by default. */
  readonly sessionTimeoutMs: number;
  /** Accept a read-only server (one cut off from its quorum) and enter `connected-read-only`. */
  readonly canBeReadOnly?: boolean;
  readonly clock?: Clock;
  /** Largest frame accepted from a server (payload bytes). */
  readonly maxFrameSize?: number;
  readonly reconnectDelay?: ReconnectDelay;
  readonly onFrame?: FrameListener;
  /** Randomness for host shuffling (tests pin it). */
  readonly random?: () => number;
  /** How long close() waits for the closeSession reply; default min(readTimeout, 2000 ms). */
  readonly closeTimeoutMs?: number;
  /** Authentication sent on every connection before anything else. */
  readonly authInfo?: readonly { readonly scheme: string; readonly auth: Uint8Array }[];
  /** Resume an existing session instead of creating one. */
  readonly sessionId?: bigint;
  readonly sessionPassword?: Uint8Array;
}


const PING_FRAME = new Uint8Array([0, 0, 0, 8, 0xff, 0xff, 0xff, 0xfe, 0, 0, 0, OpCode.ping]);
const ZERO_PASSWORD = new Uint8Array(16);
const MIN_PAUSE_AFTER_PASS_MS = 10;

export class Session {
  readonly watches = new WatchRegistry();
  private readonly machine: StateMachine;
  private readonly clock: Clock;
  private readonly hosts: HostRing;
  private readonly transport: Transport;
  private readonly requestedTimeoutMs: number;
  private readonly canBeReadOnly: boolean;
  private readonly maxFrameSize: number;
  private readonly reconnectDelay: ReconnectDelay;
  private readonly closeTimeoutMs: number | undefined;
  private readonly tracer: Tracer | undefined;
  private timing: SessionTiming;

  private id: bigint;
  private passwd: Uint8Array;
  private negotiatedMs = 0;
  private lastZxid = 0n;
  private lastHeard: number;
  private readonly xids = new XidCounter();
  private readonly writer = new JuteWriter(4096);
  private outbox: QueueItem[] = [];
  private flushScheduled = false;
  private readonly auths: AuthRecord[] = [];

  private conn: Connection | undefined;
  /** The most recent connection, live or not: close() waits for its socket to be released. */
  private lastConn: Connection | undefined;
  private connections = 0;
  private readonly heartbeat: Heartbeat;
  private readonly connectTimer: Timer;
  private readonly expiryTimer: Timer;
  private readonly sleepTimer: Timer;
  private wakeSleeper: (() => void) | undefined;
  private connectAbort: AbortController | undefined;
  private started = false;
  private closing = false;
  private closePromise: Promise<void> | undefined;
  private terminalError: ZooKeeperError | undefined;

  constructor(options: SessionOptions) {
    if (options.hosts.length === 0) throw clientError('BAD_ARGUMENT', 'no hosts to connect to', { op: 'connect' });
    this.clock = options.clock ?? systemClock;
    this.machine = new StateMachine(() => this.clock.now());
    this.hosts = new HostRing(options.hosts, options.random);
    this.transport = options.transport;
    this.requestedTimeoutMs = options.sessionTimeoutMs;
    this.canBeReadOnly = options.canBeReadOnly ?? false;
    this.maxFrameSize = options.maxFrameSize ?? DEFAULT_MAX_FRAME_SIZE;
    this.reconnectDelay = options.reconnectDelay ?? defaultReconnectDelay;
    this.closeTimeoutMs = options.closeTimeoutMs;
    this.timing = timingFor(options.sessionTimeoutMs, this.hosts.size);
    this.id = options.sessionId ?? 0n;
    this.passwd = options.sessionPassword ?? ZERO_PASSWORD;
    this.lastHeard = this.clock.now();
    const now = (): number => this.clock.now();
    this.tracer = options.onFrame === undefined ? undefined : new Tracer(options.onFrame, now);
    for (const a of options.authInfo ?? []) this.auths.push({ scheme: a.scheme, auth: a.auth, waiters: [] });
    this.heartbeat = new Heartbeat(this.clock, this.timing, {
      sendPing: () => this.sendPing(),
      onReadTimeout: (idle) => {
        const conn = this.conn;
        if (conn !== undefined) this.drop(conn, clientError('CONNECTIONLOSS', `nothing received for ${idle} ms`));
      },
    });
    this.connectTimer = new Timer(this.clock, () => {
      const conn = this.conn;
      if (conn !== undefined && !conn.handshakeDone) {
        this.connectAbort?.abort();
        this.drop(conn, clientError('CONNECTIONLOSS', `no session established with ${conn.description} within ${this.timing.connectTimeoutMs} ms`));
      }
    });
    this.expiryTimer = new Timer(this.clock, () => {
      if (this.conn?.handshakeDone !== true) {
        this.finish(
          'expired',
          clientError('SESSIONEXPIRED', `no server reachable for ${this.timing.clientExpiryMs} ms (4/3 of the session timeout)`),
        );
      }
    });
    this.sleepTimer = new Timer(this.clock, () => this.wakeSleeper?.());
  }

  get state(): SessionState {
    return this.machine.state;
  }

  get stateMachine(): StateMachine {
    return this.machine;
  }

  get sessionId(): bigint {
    return this.id;
  }

  get sessionPassword(): Uint8Array {
    return this.passwd.slice();
  }

  /** The negotiated session timeout (0 before the first handshake). */
  get negotiatedTimeoutMs(): number {
    return this.negotiatedMs;
  }

  /** The server the session is currently established on (`host:port`), if any. */
  get server(): string | undefined {
    return this.conn?.handshakeDone === true ? this.conn.description : undefined;
  }

  get lastZxidSeen(): bigint {
    return this.lastZxid;
  }

  /** Begins connecting (idempotent). */
  start(): void {
    if (this.started) return;
    this.started = true;
    void this.run();
  }

  /** Resolves once connected (or read-only); rejects on a terminal state or an abort. */
  waitConnected(signal?: AbortSignal): Promise<void> {
    if (isConnectedState(this.machine.state)) return Promise.resolve();
    if (this.terminalError !== undefined) return Promise.reject(withContext(this.terminalError, 'connect'));
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        unsubscribe();
        reject(clientError('ABORTED', undefined, { op: 'connect', cause: signal?.reason }));
      };
      const unsubscribe = this.machine.subscribe((change) => {
        if (isConnectedState(change.to)) {
          unsubscribe();
          signal?.removeEventListener('abort', onAbort);
          resolve();
        } else if (this.machine.terminal) {
          unsubscribe();
          signal?.removeEventListener('abort', onAbort);
          reject(withContext(this.terminalError ?? clientError('CLOSED'), 'connect'));
        }
      });
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  // ---- requests ------------------------------------------------------------------------------------

  /**
   * Queues a request (synchronously: call order is wire order) and resolves with `spec.onReply`'s result.
   * Rejects with CONNECTIONLOSS if the connection dies before the reply, SESSIONEXPIRED / AUTHFAILED /
   * CLOSED when the session ends, ABORTED when the signal fires (a sent request's reply is still read).
   */
  request<T>(spec: RequestSpec<T>): Promise<T> {
    const { op, path, signal } = spec;
    const stop = this.terminalError ?? (this.closing ? clientError('CLOSED', 'the client is closing') : undefined);
    if (stop !== undefined) return Promise.reject(withContext(stop, op, path));
    if (signal?.aborted === true) {
      return Promise.reject(clientError('ABORTED', 'aborted before sending', { op, path, cause: signal.reason }));
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        if (item.settled) return;
        item.settled = true;
        if (!item.sent) {
          const i = this.outbox.indexOf(item);
          if (i >= 0) this.outbox.splice(i, 1);
        }
        reject(clientError('ABORTED', item.sent ? 'aborted while awaiting the reply' : 'aborted before sending', { op, path, cause: signal?.reason }));
      };
      const item: Outgoing = {
        opcode: spec.opcode,
        body: spec.body,
        xid: 0,
        sent: false,
        settled: false,
        complete: (reply: Reply) => {
          if (item.settled) return;
          item.settled = true;
          signal?.removeEventListener('abort', onAbort);
          try {
            resolve(spec.onReply(reply));
          } catch (e) {
            reject(e instanceof ZooKeeperError ? e : clientError('PROTOCOL_ERROR', 'unexpected reply', { op, path, cause: e }));
          }
        },
        fail: (err: ZooKeeperError) => {
          if (item.settled) return;
          item.settled = true;
          signal?.removeEventListener('abort', onAbort);
          reject(withContext(err, op, path));
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.enqueue(item);
    });
  }

  /**
   * Adds credentials to the session: sent now if connected and again on every later connection.
   * Resolves on the server's first answer; AUTHFAILED ends the session (the server closes the link).
   */
  addAuth(scheme: string, auth: Uint8Array): Promise<void> {
    const stop = this.terminalError ?? (this.closing ? clientError('CLOSED', 'the client is closing') : undefined);
    if (stop !== undefined) return Promise.reject(withContext(stop, 'addAuth'));
    return new Promise<void>((resolve, reject) => {
      const record: AuthRecord = { scheme, auth, waiters: [{ resolve, reject }] };
      this.auths.push(record);
      // While disconnected the record goes out with the next handshake's auth packets.
      if (this.conn?.ready === true) this.enqueue({ auth: record });
    });
  }

  private enqueue(item: QueueItem): void {
    this.outbox.push(item);
    if (this.conn?.ready === true && !this.flushScheduled) {
      this.flushScheduled = true;
      queueMicrotask(() => this.flush());
    }
  }

  /** Encodes everything queued this tick into the one reused writer and hands it over in a single write. */
  private flush(): void {
    this.flushScheduled = false;
    const conn = this.conn;
    const stream = conn?.stream;
    if (conn === undefined || stream === undefined || !conn.ready || this.outbox.length === 0) return;
    const items = this.outbox;
    this.outbox = [];
    const w = this.writer.reset();
    const frames: number[] | undefined = this.tracer === undefined ? undefined : [];
    encodeBatch(items, { writer: w, conn, xids: this.xids, frames, rejectAuth: (record, err) => this.rejectAuth(record, err) });
    if (w.length === 0) return;
    const bytes = w.toBytes();
    stream.write(bytes);
    this.heartbeat.sent();
    if (frames !== undefined && this.tracer !== undefined) {
      for (let i = 0; i < frames.length; i += 2) this.tracer.sent(bytes.subarray(frames[i], frames[i + 1]), this.id);
    }
  }

  private sendPing(): void {
    const conn = this.conn;
    if (conn?.stream === undefined || !conn.handshakeDone) return;
    conn.pingMarks.push(conn.sentRequests);
    conn.stream.write(PING_FRAME);
    this.tracer?.sent(PING_FRAME, this.id);
  }

  // ---- connecting ----------------------------------------------------------------------------------

  private async run(): Promise<void> {
    let attempt = 0;
    let first = true;
    while (!this.machine.terminal && !this.closing) {
      if (!first) {
        const passes = Math.floor(attempt / this.hosts.size);
        const delay = this.reconnectDelay(attempt, passes);
        // Never spin: after a fruitless pass over every host, wait at least a little whatever the policy says.
        await this.sleep(passes > 0 ? Math.max(MIN_PAUSE_AFTER_PASS_MS, delay) : delay);
        if (this.machine.terminal || this.closing) break;
      }
      first = false;
      const established = await this.connectOnce(this.hosts.next().endpoint);
      attempt = established ? 0 : attempt + 1;
    }
  }

  private sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.wakeSleeper = () => {
        this.wakeSleeper = undefined;
        this.sleepTimer.cancel();
        resolve();
      };
      this.sleepTimer.arm(ms);
    });
  }

  /** One connection attempt and, if it succeeds, the connection's whole life. True if a session was established. */
  private async connectOnce(endpoint: Endpoint): Promise<boolean> {
    const conn = new Connection(++this.connections, `${endpoint.host}:${endpoint.port}`, this.maxFrameSize);
    this.conn = conn;
    this.lastConn = conn;
    this.tracer?.newConnection();
    const abort = new AbortController();
    this.connectAbort = abort;
    this.connectTimer.arm(this.timing.connectTimeoutMs);
    const handlers = {
      onData: (chunk: Uint8Array) => this.onData(conn, chunk),
      onClose: (error?: Error) => {
        conn.streamClosed();
        this.drop(conn, clientError('CONNECTIONLOSS', error === undefined ? `${conn.description} closed the connection` : error.message, { cause: error }));
      },
    };
    try {
      this.transport.connect(endpoint, handlers, { signal: abort.signal }).then(
        (stream) => {
          if (conn.isOver) {
            stream.close();
            return;
          }
          conn.attach(stream);
          this.sendConnectRequest(conn);
        },
        (e: unknown) => this.drop(conn, clientError('CONNECTIONLOSS', `cannot connect to ${conn.description}`, { cause: e })),
      );
    } catch (e) {
      this.drop(conn, clientError('CONNECTIONLOSS', `cannot connect to ${conn.description}`, { cause: e }));
    }
    await conn.ended;
    if (this.connectAbort === abort) this.connectAbort = undefined;
    return conn.handshakeDone;
  }

  private sendConnectRequest(conn: Connection): void {
    const w = this.writer.reset();
    encodeConnectRequestFrame(w, {
      protocolVersion: 0,
      lastZxidSeen: this.lastZxid,
      timeOut: this.requestedTimeoutMs,
      sessionId: this.id,
      passwd: this.passwd,
      // Always sent: a 3.4–3.8 server then answers with the byte too, and a read-only server needs it.
      readOnly: this.canBeReadOnly,
    });
    const bytes = w.toBytes();
    conn.stream?.write(bytes);
    this.tracer?.sent(bytes, this.id);
  }

  private onConnectResponse(conn: Connection, res: ConnectResponse): void {
    this.connectTimer.cancel();
    if (res.timeOut <= 0) {
      this.finish('expired', clientError('SESSIONEXPIRED', `${conn.description} reports the session expired`));
      return;
    }
    this.id = res.sessionId;
    this.passwd = res.passwd ?? ZERO_PASSWORD;
    this.negotiatedMs = res.timeOut;
    this.timing = timingFor(res.timeOut, this.hosts.size);
    conn.handshakeDone = true;
    this.expiryTimer.cancel();
    this.heartbeat.start(this.timing);
    // Auth first, then watches, then whatever the application queued meanwhile (as the Java client does).
    const first: QueueItem[] = this.auths.map((auth) => ({ auth }));
    if (this.watches.size > 0) {
      for (const batch of setWatchesBatches(this.watches.lists())) {
        const l = batch.lists;
        const body =
          batch.opcode === OpCode.setWatches
            ? { relativeZxid: this.lastZxid, dataWatches: l.data, existWatches: l.exist, childWatches: l.child }
            : {
                relativeZxid: this.lastZxid,
                dataWatches: l.data,
                existWatches: l.exist,
                childWatches: l.child,
                persistentWatches: l.persistent,
                persistentRecursiveWatches: l.persistentRecursive,
              };
        first.push(internalRequest(batch.opcode, body));
      }
    }
    this.outbox = [...first, ...this.outbox];
    conn.ready = true;
    this.machine.change(res.readOnly === true ? 'connected-read-only' : 'connected');
    this.flush();
  }

  // ---- receiving -----------------------------------------------------------------------------------

  private onData(conn: Connection, chunk: Uint8Array): void {
    if (conn.isOver) return;
    conn.frames.push(chunk);
    for (;;) {
      const next = conn.frames.next();
      if (next.kind === 'need-more') return;
      if (next.kind === 'error') {
        const code = next.error.code === 'FRAME_TOO_LARGE' ? 'FRAME_TOO_LARGE' : 'PROTOCOL_ERROR';
        this.drop(conn, clientError(code, `from ${conn.description}: ${next.error.message}`));
        return;
      }
      try {
        this.onFrame(conn, next.payload);
      } catch (e) {
        this.drop(conn, clientError('PROTOCOL_ERROR', `undecodable frame from ${conn.description}`, { cause: e }));
        return;
      }
      if (conn.isOver) return;
    }
  }

  private onFrame(conn: Connection, payload: Uint8Array): void {
    this.heartbeat.received();
    this.lastHeard = this.clock.now();
    this.tracer?.received(payload, this.id);
    const r = new JuteReader(payload);
    if (!conn.handshakeDone) {
      this.onConnectResponse(conn, decodeConnectResponse(r));
      return;
    }
    const header = decodeReplyHeader(r);
    switch (header.xid) {
      case Xid.notification: {
        const event = decodeWatcherEvent(r);
        const type = eventTypeName(event.type);
        if (type !== undefined && event.path !== null) this.watches.dispatch({ type, state: 'SyncConnected', path: event.path });
        return;
      }
      case Xid.ping: {
        // Pings go through the server's pipeline in order, so a ping answer overtaking an older request
        // means that request's reply was lost: without this check it would wait for ever on a live link.
        const mark = conn.pingMarks.shift();
        const oldest = conn.pending.peek();
        if (mark !== undefined && oldest?.seq !== undefined && oldest.seq <= mark) {
          this.drop(conn, clientError('PROTOCOL_ERROR', `ping answered before the reply to xid ${oldest.xid}: that reply was lost`));
        }
        return;
      }
      case Xid.auth:
        if (conn.authInFlight.length === 0) {
          this.drop(conn, clientError('PROTOCOL_ERROR', 'auth reply without an auth request'));
          return;
        }
        this.onAuthReply(conn, header.err);
        return;
    }
    const head = conn.pending.peek();
    if (head === undefined || head.xid !== header.xid) {
      const expected = head === undefined ? 'no request outstanding' : `expected xid ${head.xid}`;
      this.drop(conn, clientError('PROTOCOL_ERROR', `reply with xid ${header.xid} from ${conn.description}, ${expected}`));
      return;
    }
    conn.pending.shift();
    if (header.zxid > this.lastZxid) this.lastZxid = header.zxid;
    let body: unknown;
    if (header.err === 0) {
      try {
        body = decodeResponseBody(head.opcode, r);
      } catch (e) {
        const err = clientError('PROTOCOL_ERROR', `undecodable reply to xid ${head.xid}`, { cause: e });
        head.fail(err);
        this.drop(conn, err);
        return;
      }
    }
    head.complete({ err: header.err, zxid: header.zxid, body });
  }

  private onAuthReply(conn: Connection, err: number): void {
    const record = conn.authInFlight.shift();
    if (err === ErrorCode.AUTHFAILED) {
      this.finish('auth-failed', clientError('AUTHFAILED', `${conn.description} rejected the credentials${record === undefined ? '' : ` for scheme ${record.scheme}`}`));
      return;
    }
    if (record === undefined) return;
    const waiters = record.waiters;
    record.waiters = [];
    if (err === 0) {
      for (const w of waiters) w.resolve();
    } else {
      const i = this.auths.indexOf(record);
      if (i >= 0) this.auths.splice(i, 1);
      const e = clientError(err === 0 ? 'UNKNOWN_ERROR' : 'AUTHFAILED', `auth reply error ${err}`, { op: 'addAuth' });
      for (const w of waiters) w.reject(e);
    }
  }

  private rejectAuth(record: AuthRecord, err: ZooKeeperError): void {
    const i = this.auths.indexOf(record);
    if (i >= 0) this.auths.splice(i, 1);
    for (const w of record.waiters) w.reject(err);
    record.waiters = [];
  }

  // ---- losing and ending ---------------------------------------------------------------------------

  /** Ends one connection: fails its in-flight requests with CONNECTIONLOSS and lets the loop reconnect. */
  private drop(conn: Connection, reason: ZooKeeperError): void {
    const wasUp = conn.handshakeDone;
    const left = conn.end(reason);
    if (left === undefined) return;
    if (this.conn === conn) {
      this.conn = undefined;
      this.heartbeat.stop();
      this.connectTimer.cancel();
    }
    // Auth records are re-sent from the list on the next handshake; never twice.
    this.outbox = this.outbox.filter((item) => !('auth' in item));
    const loss =
      reason.code === 'CONNECTIONLOSS' ? reason : clientError('CONNECTIONLOSS', reason.message, { cause: reason });
    for (const item of left) item.fail(loss);
    if (this.machine.terminal || this.closing) return;
    if (wasUp) this.machine.change('disconnected', reason);
    // Expiry is judged from the last frame heard on an established link; only a session we had can expire.
    if (this.id !== 0n && !this.expiryTimer.armed) {
      this.expiryTimer.arm(this.timing.clientExpiryMs - (this.clock.now() - this.lastHeard));
    }
  }

  /** Enters a terminal state: every timer and socket released, every promise settled, every watch told. */
  private finish(state: 'expired' | 'auth-failed' | 'closed', err: ZooKeeperError): void {
    if (this.machine.terminal) return;
    this.terminalError = err;
    this.expiryTimer.cancel();
    this.connectTimer.cancel();
    this.heartbeat.stop();
    this.wakeSleeper?.();
    this.connectAbort?.abort();
    const conn = this.conn;
    this.conn = undefined;
    for (const item of conn?.end(err) ?? []) item.fail(err);
    const queued = this.outbox;
    this.outbox = [];
    for (const item of queued) if (!('auth' in item)) item.fail(err);
    for (const record of this.auths) {
      for (const w of record.waiters) w.reject(withContext(err, 'addAuth'));
      record.waiters = [];
    }
    this.machine.change(state, err);
    this.watches.closeAll(state === 'expired' ? 'Expired' : state === 'auth-failed' ? 'AuthFailed' : 'Closed');
  }

  /**
   * Closes the session: sends closeSession and waits (bounded) for its reply so the server drops our
   * ephemerals at once, then releases everything. Requests sent before close() still get their replies.
   */
  close(): Promise<void> {
    this.closePromise ??= this.doClose();
    return this.closePromise;
  }

  private async doClose(): Promise<void> {
    if (!this.machine.terminal) {
      this.closing = true;
      if (this.conn?.ready === true) {
        await this.bounded(
          new Promise<void>((resolve) => this.enqueue(internalRequest(OpCode.closeSession, undefined, resolve))),
          this.closeTimeoutMs ?? Math.min(this.timing.readTimeoutMs, 2000),
        );
      }
      this.finish('closed', clientError('CLOSED', 'the client was closed'));
    }
    // The transport reports the socket closed a moment after close(); wait for it (bounded) so that
    // when close() resolves no socket of ours is left.
    const last = this.lastConn;
    if (last !== undefined) await this.bounded(last.released, 1000);
  }

  private async bounded(promise: Promise<void>, ms: number): Promise<void> {
    let timer: Timer | undefined;
    await Promise.race([promise, new Promise<void>((resolve) => (timer = new Timer(this.clock, resolve)).arm(ms))]);
    timer?.cancel();
  }
}

/** A request the session makes itself (setWatches, closeSession): no caller promise, no abort. */
function internalRequest(opcode: number, body: unknown, done?: () => void): Outgoing {
  const item: Outgoing = {
    opcode,
    body,
    xid: 0,
    sent: false,
    settled: false,
    complete: () => {
      item.settled = true;
      done?.();
    },
    fail: () => {
      item.settled = true;
      done?.();
    },
  };
  return item;
}
