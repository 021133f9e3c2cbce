/**
 * The session state machine: owns the session's identity (id, password, negotiated timeout, last zxid),
 * its state and its timers, and decides what a handshake, a lost connection, expiry and close mean.
 * The moving parts live beside it: connect-loop.ts dials hosts, outbox.ts writes, receive.ts routes what
 * is read, resume.ts says what a new connection sends first, credentials.ts keeps the auths.
 *
 * Everything runs on the caller's event loop with no locks: frames of one chunk are handled one after
 * another, synchronously, so a watch notification is delivered before the reply that follows it on the
 * wire, and a watch registered by a reply exists before the next frame is read.
 */

import { clientError, withContext, type ZooKeeperError } from '../errors.js';
import { DEFAULT_MAX_FRAME_SIZE, ErrorCode, OpCode, type ConnectResponse } from '../protocol/index.js';
import type { Endpoint } from '../transport/types.js';
import { clockOf, settleWithin, Timer, type Clock } from './clock.js';
import { ConnectLoop, DEFAULT_RECONNECT_POLICY } from './connect-loop.js';
import { HostProvider } from './host-provider.js';
import type { Connection } from './connection.js';
import { Credentials } from './credentials.js';
import { Heartbeat } from './heartbeat.js';
import { Outbox } from './outbox.js';
import { callerItem, internalRequest, type Outgoing, type ReplyProbe, type RequestSpec } from './outgoing.js';
import { receiveChunk, routeFrame, type FrameRoutes } from './receive.js';
import { admit, type VersionSource } from './admit.js';
import { fourLetterOver } from './four-letter-probe.js';
import { resumePackets } from './resume.js';
import { ReadWriteSearch } from './rw-search.js';
import { SASL_LOGIN, type SaslLoginDriver } from './sasl-login.js';
import type { ServerVersion } from './server-version.js';
import { StateMachine, type SessionState } from './state.js';
import type { SessionOptions } from './session-options.js';
import { timingFor, type SessionTiming } from './timing.js';
import { Tracer } from './trace.js';
import { untilConnected } from './wait-connected.js';
import { WatchRegistry } from './watches.js';

export type { SessionOptions } from './session-options.js';

const ZERO_PASSWORD = new Uint8Array(16);

export class Session {
  readonly watches = new WatchRegistry();
  readonly #machine: StateMachine;
  readonly #clock: Clock;
  readonly #hosts: HostProvider;
  /** As given: what is read from it unchanged (the sasl mechanism, a secret holder, stays ES private with it). */
  readonly #options: SessionOptions;
  /** Aborted when the session ends: side connections (version, read-write probes) go with it. */
  readonly #sideConnections = new AbortController();
  #timing: SessionTiming;

  #id: bigint;
  // ES private, like the credentials: inspecting or logging the session shows neither.
  #passwd: Uint8Array;
  #negotiatedMs = 0;
  #lastZxid: bigint;
  #lastHeard: number;
  readonly #tracer: Tracer | undefined;
  readonly #outbox: Outbox;
  readonly #credentials: Credentials;
  readonly #loop: ConnectLoop;
  readonly #routes: FrameRoutes;

  #conn: Connection | undefined;
  /** The most recent connection, live or not: close() waits for its socket to be released. */
  #lastConn: Connection | undefined;
  readonly #heartbeat: Heartbeat;
  /** Looks at the oldest unanswered request, when `requestTimeoutMs` is set (see the constructor). */
  readonly #requestTimer: Timer | undefined;
  readonly #rwSearch: ReadWriteSearch;
  /**
   * A read-write server has been seen. Until then the session id is one a read-only server made up, which no
   * read-write server knows: the next connection asks for a new session instead (as ClientCnxn's seenRwServerBefore).
   */
  #seenRwServer: boolean;
  readonly #connectTimer: Timer;
  readonly #expiryTimer: Timer;
  #started = false;
  #closing = false;
  #closePromise: Promise<void> | undefined;
  #terminalError: ZooKeeperError | undefined;
  /** Why the most recent connection ended (refused, TLS, handshake, lost): what a connect timeout reports. */
  #lastFailure: ZooKeeperError | undefined;

  constructor(options: SessionOptions) {
    if (options.hosts.length === 0) throw clientError('BAD_ARGUMENT', 'no hosts to connect to', { op: 'connect' });
    this.#options = options;
    const clock = (this.#clock = clockOf(options.clock));
    this.#machine = new StateMachine(() => clock.now());
    const hosts = (this.#hosts = new HostProvider(options.hosts, options.random));
    this.#timing = timingFor(options.sessionTimeoutMs, hosts.size);
    this.#id = options.sessionId ?? 0n;
    this.#lastZxid = options.lastZxidSeen ?? 0n;
    this.#passwd = options.sessionPassword ?? ZERO_PASSWORD;
    this.#seenRwServer = options.sessionId !== undefined;
    this.#lastHeard = clock.now();
    this.#tracer = options.onFrame === undefined ? undefined : new Tracer(options.onFrame, () => clock.now());
    this.#credentials = new Credentials(options.authInfo);
    const versions: VersionSource = { known: options.serverVersion, ask: this.#askWord, learnt: () => this.#outbox.flush() };
    this.#outbox = new Outbox(
      {
        connection: () => this.#conn,
        sessionId: () => this.#id,
        wrote: () => {
          this.#heartbeat.sent();
          if (this.#requestTimer?.armed === false) this.#requestTimer.arm((options.requestTimeoutMs ?? 0) / 4);
        },
        admit: (conn, item) => admit(conn, item, versions),
        rejectAuth: (record, err) => {
          this.#credentials.reject(record, err);
          // The refused record no longer counts as unconfirmed: if it was the last one, we are connected now.
          if (this.#conn !== undefined) this.#announce(this.#conn);
        },
      },
      this.#tracer,
    );
    this.#routes = {
      connectResponse: (conn, res) => this.#onConnectResponse(conn, res),
      notification: (event) => this.watches.dispatch(event),
      authReply: (conn, err) => this.#onAuthReply(conn, err),
      replied: (zxid) => {
        if (zxid > this.#lastZxid) this.#lastZxid = zxid;
      },
      drop: (conn, reason) => this.#drop(conn, reason),
    };
    this.#loop = new ConnectLoop(
      {
        clock,
        hosts,
        transport: options.transport,
        resolver: options.resolver ?? options.transport.resolver,
        random: options.random ?? Math.random,
        reconnect: options.reconnect ?? DEFAULT_RECONNECT_POLICY,
        maxFrameSize: options.maxFrameSize ?? DEFAULT_MAX_FRAME_SIZE,
        // The default policy gives up on hosts that refuse or are not ZooKeeper, but only for a client's first
        // session: one that resumes or renews (the series passes the last zxid seen) rides out the outage.
        giveUpWhenHopeless: options.reconnect === undefined && options.sessionId === undefined && options.lastZxidSeen === undefined,
      },
      {
        stopped: () => this.#machine.terminal || this.#closing,
        begin: (conn) => this.#begin(conn),
        opened: (conn) => this.#sendConnectRequest(conn),
        data: (conn, chunk) => receiveChunk(conn, chunk, this.#onFrame, this.#routes.drop),
        drop: this.#routes.drop,
        passFailed: (attempts, final) => this.#onPassFailed(attempts, final),
      },
    );
    this.#rwSearch = new ReadWriteSearch(
      clock,
      () => hosts.all(),
      (endpoint) => this.#askWord(endpoint, 'isro'),
      (endpoint) => this.#moveTo(endpoint),
    );
    this.#machine.subscribe((change) => {
      if (change.to === 'connected-read-only') this.#rwSearch.start();
      else this.#rwSearch.stop();
    });
    this.#heartbeat = new Heartbeat(clock, this.#timing, {
      sendPing: () => this.#outbox.ping(),
      onReadTimeout: (idle) => {
        const conn = this.#conn;
        if (conn !== undefined) this.#drop(conn, clientError('CONNECTIONLOSS', `nothing received for ${idle} ms`));
      },
    });
    // requestTimeoutMs (ZooKeeper's zookeeper.request.timeout): a request unanswered that long fails with
    // REQUESTTIMEOUT and its connection is dropped as suspect, as ClientCnxn does; the session reconnects as after any
    // lost link. No timer per request: replies come in wire order, so the oldest unanswered request is the head of
    // the FIFO; one timer looks at it every quarter of the timeout while anything is pending, and a head seen at five
    // looks in a row has waited 1 to 1.25 times the timeout.
    const requestMs = options.requestTimeoutMs;
    let head: Outgoing | undefined;
    let looks = 0;
    this.#requestTimer =
      requestMs === undefined
        ? undefined
        : new Timer(clock, () => {
            const conn = this.#conn;
            const item = conn?.pending.peek();
            if (item === undefined) return;
            if (item !== head) [head, looks] = [item, 0];
            else if (++looks > 3) {
              const err = clientError('REQUESTTIMEOUT', `no reply within ${requestMs} ms`);
              item.fail(err);
              return this.#drop(conn as Connection, err);
            }
            this.#requestTimer?.arm(requestMs / 4);
          });
    this.#connectTimer = new Timer(clock, () => {
      const conn = this.#conn;
      if (conn !== undefined && !conn.handshakeDone) {
        this.#loop.abortConnect();
        this.#drop(conn, clientError('CONNECTIONLOSS', `no session established with ${conn.description} within ${this.#timing.connectTimeoutMs} ms`));
      }
    });
    this.#expiryTimer = new Timer(clock, () => {
      if (this.#conn?.handshakeDone !== true) {
        this.#finish(
          'expired',
          clientError('SESSIONEXPIRED', `no server reachable for ${this.#timing.clientExpiryMs} ms (4/3 of the session timeout)`),
        );
      }
    });
  }

  get state(): SessionState {
    return this.#machine.state;
  }

  get stateMachine(): StateMachine {
    return this.#machine;
  }

  get sessionId(): bigint {
    return this.#id;
  }

  get sessionPassword(): Uint8Array {
    return this.#passwd.slice();
  }

  /** The negotiated session timeout (0 before the first handshake). */
  get negotiatedTimeoutMs(): number {
    return this.#negotiatedMs;
  }

  /** The server the session is currently established on (`host:port`), if any. */
  get server(): string | undefined {
    return this.#conn?.handshakeDone === true ? this.#conn.description : undefined;
  }

  /** The endpoint the session is established on (with the address dialled, when resolved), if any. */
  get connectedEndpoint(): Endpoint | undefined {
    return this.#conn?.handshakeDone === true ? this.#conn.endpoint : undefined;
  }

  get lastZxidSeen(): bigint {
    return this.#lastZxid;
  }

  /** The credentials the session holds (given and added, in order): what a successor session starts with. */
  get authInfo(): { readonly scheme: string; readonly auth: Uint8Array }[] {
    return this.#credentials.list();
  }

  /** Why the most recent connection failed or ended, if one did: the cause behind a connect TIMEOUT. */
  get lastConnectionFailure(): ZooKeeperError | undefined {
    return this.#lastFailure;
  }

  /** The servers the session connects to, in the order they are tried. */
  get hosts(): readonly Endpoint[] {
    return this.#hosts.all();
  }

  /**
   * Replaces the server list (see host-provider.ts for the rebalancing rule). When the rule says this client
   * leaves its server, the connection is dropped once the calls in flight on it are answered (later calls wait for
   * the next connection), and the session resumes on the server the rule picks. True when the client moves.
   */
  updateServerList(hosts: readonly Endpoint[]): boolean {
    if (hosts.length === 0) throw clientError('BAD_ARGUMENT', 'no hosts in the new server list', { op: 'updateServerList' });
    if (this.#machine.terminal || this.#closing) return false;
    const conn = this.#conn;
    const move = this.#hosts.update(hosts, conn?.isOver === false ? conn.endpoint : undefined);
    // Connect attempts share the session timeout between the hosts: a longer list gives each a shorter attempt.
    this.#timing = timingFor(this.#timing.sessionTimeoutMs, this.#hosts.size);
    if (move && conn !== undefined) {
      // Unlike the Java client, which drops the link at once, the move waits for the replies to the calls in flight,
      // so that no call fails (and no write is left of unknown outcome) because the client rebalanced.
      conn.leaving = true;
      this.#leaveIfIdle(conn);
    }
    return move;
  }

  /**
   * Drops a connection the session is leaving once nothing on it awaits an answer (at once when its handshake is not
   * done: nothing is written on a connection before it).
   */
  #leaveIfIdle(conn: Connection): void {
    if (conn.isOver || conn.pending.size > 0 || conn.authInFlight.length > 0 || conn.saslPending) return;
    this.#drop(conn, clientError('CONNECTIONLOSS', `leaving ${conn.description} for another server of the new server list (rebalancing)`));
  }

  /** Begins connecting (idempotent). */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    void this.#loop.run();
  }

  /** Resolves once connected (or read-only); rejects on a terminal state or an abort. */
  waitConnected(signal?: AbortSignal): Promise<void> {
    return untilConnected(this.#machine, () => this.#terminalError, signal);
  }

  // ---- requests ------------------------------------------------------------------------------------

  /**
   * Queues a request (synchronously: call order is wire order) and resolves with `spec.onReply`'s result.
   * Rejects with CONNECTIONLOSS if the connection dies before the reply, SESSIONEXPIRED / AUTHFAILED /
   * CLOSED when the session ends, ABORTED when the signal fires (a sent request's reply is still read).
   */
  request<T>(spec: RequestSpec<T>): Promise<T> {
    const { op, path, signal } = spec;
    const refused = this.#refusal();
    if (refused !== undefined) return Promise.reject(withContext(refused, op, path));
    if (signal?.aborted === true) {
      return Promise.reject(clientError('ABORTED', 'aborted before sending', { op, path, cause: signal.reason }));
    }
    // The observer's probe sees each item settle just before its caller does.
    const send = (probe?: ReplyProbe): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        const item: Outgoing = callerItem(
          spec,
          probe ? (value) => (probe(item), resolve(value)) : resolve,
          probe ? (err) => (probe(item, err), reject(err)) : reject,
          (item) => this.#outbox.withdraw(item),
        );
        this.#outbox.push(item);
      });
    const observe = this.#options.observe;
    return observe === undefined ? send() : observe(spec, this, send);
  }

  /**
   * Adds credentials to the session: sent now if connected and again on every later connection.
   * Resolves on the server's first answer; AUTHFAILED ends the session (the server closes the link).
   */
  addAuth(scheme: string, auth: Uint8Array): Promise<void> {
    const refused = this.#refusal();
    if (refused !== undefined) return Promise.reject(withContext(refused, 'addAuth'));
    return new Promise<void>((resolve, reject) => {
      const record = this.#credentials.add(scheme, auth, { resolve, reject });
      // While disconnected the record goes out with the next handshake's auth packets.
      if (this.#conn?.ready === true) this.#outbox.push({ auth: record });
    });
  }

  /**
   * A four-letter word on a side connection to `endpoint` (the version, read-write probes), bounded by the side
   * deadline and ended with the session.
   */
  readonly #askWord = (endpoint: Endpoint, word: string): Promise<string | undefined> =>
    fourLetterOver(this.#options.transport, endpoint, word, this.#clock, this.#sideTimeoutMs, this.#sideConnections.signal);

  /**
   * How long a side connection's 4lw answer (the held ops then go as they are) and, by default, close()'s
   * closeSession reply are awaited at most.
   */
  get #sideTimeoutMs(): number {
    return Math.min(this.#timing.readTimeoutMs, 2000);
  }

  /** The version of the server the session is on, once learnt (see learnVersion); undefined when unknown. */
  get serverVersion(): ServerVersion | undefined {
    return this.#options.serverVersion ?? this.#conn?.serverVersion ?? undefined;
  }

  /** Why a new request is refused at once: the session is over or closing. */
  #refusal(): ZooKeeperError | undefined {
    return this.#terminalError ?? (this.#closing ? clientError('CLOSED', 'the client is closing') : undefined);
  }

  // ---- connecting ----------------------------------------------------------------------------------

  #begin(conn: Connection): void {
    this.#conn = conn;
    this.#lastConn = conn;
    this.#tracer?.newConnection();
    this.#connectTimer.arm(this.#timing.connectTimeoutMs);
  }

  #sendConnectRequest(conn: Connection): void {
    const resume = this.#seenRwServer;
    this.#outbox.writeConnectRequest(conn, {
      protocolVersion: 0,
      lastZxidSeen: this.#lastZxid,
      timeOut: this.#options.sessionTimeoutMs,
      sessionId: resume ? this.#id : 0n,
      passwd: resume ? this.#passwd : ZERO_PASSWORD,
      // Always sent: a 3.4–3.8 server then answers with the byte too, and a read-only server needs it.
      readOnly: this.#options.canBeReadOnly === true,
    });
  }

  #onConnectResponse(conn: Connection, res: ConnectResponse): void {
    this.#connectTimer.cancel();
    if (res.timeOut <= 0) {
      this.#finish('expired', clientError('SESSIONEXPIRED', `${conn.description} reports the session expired`));
      return;
    }
    this.#id = res.sessionId;
    this.#passwd = res.passwd ?? ZERO_PASSWORD;
    this.#negotiatedMs = res.timeOut;
    this.#timing = timingFor(res.timeOut, this.#hosts.size);
    conn.handshakeDone = true;
    this.#hosts.connected();
    this.#expiryTimer.cancel();
    this.#heartbeat.start(this.#timing);
    this.#outbox.putFirst(resumePackets(this.#credentials, this.watches, this.#lastZxid));
    conn.ready = true;
    conn.readOnly = res.readOnly === true;
    const sasl = this.#options.sasl;
    if (sasl !== undefined) {
      const { host, port } = conn.endpoint;
      // The driver comes with the mechanism (saslMechanism): a client without SASL carries none of it.
      (sasl[SASL_LOGIN] as SaslLoginDriver)(conn, sasl, { host, port, transport: this.#options.transport }, {
        send: (item) => {
          this.#outbox.putFirst([item]);
          this.#outbox.flush();
        },
        current: () => this.#conn === conn && !conn.isOver,
        refused: (err) => this.#finish('auth-failed', err),
        done: () => {
          this.#announce(conn);
          this.#outbox.flush();
        },
      });
    }
    if (!conn.readOnly) this.#seenRwServer = true;
    this.#announce(conn);
    this.#outbox.flush();
  }

  /**
   * Enters connected (or read-only) once the handshake is done and the server has answered every authInfo
   * credential. Auth replies come ahead of any later reply, so this costs connect() one round trip at most,
   * and a refused authInfo makes connect() reject with AUTHFAILED instead of resolving on a dying session.
   */
  #announce(conn: Connection): void {
    if (this.#conn !== conn || !conn.handshakeDone || !this.#credentials.confirmed || conn.saslPending) return;
    this.#machine.change(conn.readOnly ? 'connected-read-only' : 'connected');
  }

  // ---- receiving -----------------------------------------------------------------------------------

  /** Every frame read: the link is alive, the tracer sees it, then it is routed. */
  readonly #onFrame = (conn: Connection, payload: Uint8Array): void => {
    this.#heartbeat.received();
    this.#lastHeard = this.#clock.now();
    this.#tracer?.received(payload, this.#id);
    routeFrame(conn, payload, this.#routes);
    if (conn.leaving) this.#leaveIfIdle(conn);
  };

  #onAuthReply(conn: Connection, err: number): void {
    const record = conn.authInFlight.shift()?.record;
    if (err === ErrorCode.AUTHFAILED) {
      // Every request still awaiting its reply fails with AUTHFAILED, but like CONNECTIONLOSS that leaves the
      // outcome of a request already written unknown: ZooKeeper 3.8 may still execute requests pipelined behind
      // the refused AuthPacket before it closes the link (a setData seen applied yet reported AUTHFAILED).
      this.#finish('auth-failed', clientError('AUTHFAILED', `${conn.description} rejected the credentials${record === undefined ? '' : ` for scheme ${record.scheme}`}`));
      return;
    }
    this.#credentials.answered(record, err);
    this.#announce(conn);
  }

  // ---- losing and ending ---------------------------------------------------------------------------

  /** Ends one connection: fails its in-flight requests with CONNECTIONLOSS and lets the loop reconnect. */
  #drop(conn: Connection, reason: ZooKeeperError): void {
    const wasUp = conn.handshakeDone;
    const left = conn.end(reason);
    if (left === undefined) return;
    this.#lastFailure = reason;
    if (this.#conn === conn) {
      this.#conn = undefined;
      this.#heartbeat.stop();
      this.#connectTimer.cancel();
    }
    this.#outbox.dropAuthPackets();
    const loss =
      reason.code === 'CONNECTIONLOSS' ? reason : clientError('CONNECTIONLOSS', reason.message, { cause: reason });
    for (const item of left) item.fail(loss);
    // An auth packet's reply lost with its link: its addAuth caller cannot know whether the server took it (like
    // any call in flight); the credential stays in the list and goes out again first on the next connection.
    this.#credentials.lost(conn.authInFlight.splice(0).map((a) => a.record), loss);
    if (this.#machine.terminal || this.#closing) return;
    if (wasUp) this.#machine.change('disconnected', reason);
    // Expiry is judged from the last frame heard on an established link; only a session we had can expire.
    if (this.#id !== 0n && !this.#expiryTimer.armed) {
      this.#expiryTimer.arm(this.#timing.clientExpiryMs - (this.#clock.now() - this.#lastHeard));
    }
  }

  /**
   * Every host was tried and none gave us a session. The calls queued meanwhile fail with CONNECTIONLOSS, as the
   * Java client's do when a connect attempt fails: without this, a client made with the bare constructor against
   * servers that never answer would hold them until close() (no session id yet, so no local expiry to end them).
   * The session itself goes on trying; later calls queue again. Credentials stay and go out on the next link.
   * Unless the reconnect policy gave up (`final`): then the session ends, `closed` with that CONNECTIONLOSS (its
   * message is the pass's: a sentence of its own cost 20 bytes gzipped in the client+mutex bundle).
   */
  #onPassFailed(attempts: number, final: boolean): void {
    const last = this.#lastFailure;
    // A loop that gave up on a server that is not ZooKeeper says so in the code too.
    const code = final && last?.code === 'PROTOCOL_ERROR' ? last.code : 'CONNECTIONLOSS';
    const err = clientError(code, `no server reachable: ${attempts} connect attempt(s) over all ${this.#hosts.size} host(s) failed${last === undefined ? '' : `; last: ${last.message}`}`, { cause: last });
    if (final) return this.#finish('closed', err);
    this.#outbox.failAll(err);
    this.#credentials.rejectWaiters(err);
  }

  /**
   * A read-write server answered `isro` while we are on a read-only one: drop this link and connect there next,
   * as the Java client does. Calls in flight on the read-only link fail with CONNECTIONLOSS, as on any move.
   */
  #moveTo(endpoint: Endpoint): void {
    const conn = this.#conn;
    if (conn === undefined || !conn.readOnly || this.#machine.terminal || this.#closing) return;
    this.#loop.preferNext(endpoint);
    this.#drop(conn, clientError('CONNECTIONLOSS', `moving from read-only ${conn.description} to read-write ${endpoint.host}:${endpoint.port}`));
  }

  /** Enters a terminal state: every timer and socket released, every promise settled, every watch told. */
  #finish(state: 'expired' | 'auth-failed' | 'closed', err: ZooKeeperError): void {
    if (this.#machine.terminal) return;
    this.#terminalError = err;
    this.#expiryTimer.cancel();
    this.#connectTimer.cancel();
    this.#heartbeat.stop();
    this.#requestTimer?.cancel();
    this.#loop.stop();
    this.#rwSearch.stop();
    this.#sideConnections.abort();
    const conn = this.#conn;
    this.#conn = undefined;
    for (const item of conn?.end(err) ?? []) item.fail(err);
    this.#outbox.failAll(err);
    this.#credentials.rejectWaiters(err);
    this.#machine.change(state, err);
    this.watches.closeAll(state === 'expired' ? 'Expired' : state === 'auth-failed' ? 'AuthFailed' : 'Closed');
  }

  /**
   * Closes the session: sends closeSession and waits (bounded) for its reply so the server drops our
   * ephemerals at once, then releases everything. Requests sent before close() still get their replies.
   */
  close(): Promise<void> {
    this.#closePromise ??= this.#doClose();
    return this.#closePromise;
  }

  async #doClose(): Promise<void> {
    if (!this.#machine.terminal) {
      this.#closing = true;
      if (this.#conn?.ready === true) {
        await settleWithin(
          this.#clock,
          new Promise<void>((resolve) => this.#outbox.push(internalRequest(OpCode.closeSession, undefined, resolve))),
          this.#options.closeTimeoutMs ?? this.#sideTimeoutMs,
        );
      }
      this.#finish('closed', clientError('CLOSED', 'the client was closed'));
    }
    // The transport reports the socket closed a moment after close(); wait for it (bounded) so that
    // when close() resolves no socket of ours is left.
    const last = this.#lastConn;
    if (last !== undefined) await settleWithin(this.#clock, last.released, 1000);
  }
}
