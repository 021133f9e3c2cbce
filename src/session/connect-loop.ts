/**
 * The connect loop: takes the hosts in the host provider's turn, resolves the host's name when a resolver is
 * given (again on every attempt), opens a connection through the transport, lives
 * through that connection until it ends, then pauses as the reconnect policy says and tries the next.
 * What happens on the connection (handshake, frames, loss) is the session's: the loop only dials and waits.
 */

import { clientError, type ZooKeeperError } from '../errors.js';
import type { ByteStreamHandlers, Endpoint, Transport } from '../transport/types.js';
import { Timer, type Clock } from './clock.js';
import { Connection } from './connection.js';
import type { HostProvider } from './host-provider.js';
import { resolveEndpoint, type Resolver } from './resolve.js';
import type { ReconnectDelay } from './timing.js';

/** After a fruitless pass over every host, wait at least this long whatever the policy says: never spin. */
const MIN_PAUSE_AFTER_PASS_MS = 10;

export interface ConnectLoopOptions {
  readonly clock: Clock;
  readonly hosts: HostProvider;
  readonly transport: Transport;
  /** Resolves each host before each attempt; none: the transport is given the host as it is. */
  readonly resolver?: Resolver | undefined;
  /** Picks among a host's addresses. */
  readonly random: () => number;
  readonly reconnectDelay: ReconnectDelay;
  readonly maxFrameSize: number;
}

/** The session's side of each connection. */
export interface ConnectionHooks {
  /** True once the session is over or closing: no further attempts. */
  stopped(): boolean;
  /** A new connection is the session's current one from now on. */
  begin(conn: Connection): void;
  /** Its stream is open: time for the ConnectRequest. */
  opened(conn: Connection): void;
  data(conn: Connection, chunk: Uint8Array): void;
  drop(conn: Connection, reason: ZooKeeperError): void;
  /** A whole pass over the hosts ended without a session: `attempts` failed since the link was last up. */
  passFailed(attempts: number): void;
}

export class ConnectLoop {
  #connections = 0;
  readonly #sleepTimer: Timer;
  #wakeSleeper: (() => void) | undefined;
  #connectAbort: AbortController | undefined;
  readonly #options: ConnectLoopOptions;
  readonly #hooks: ConnectionHooks;

  constructor(options: ConnectLoopOptions, hooks: ConnectionHooks) {
    this.#options = options;
    this.#hooks = hooks;
    this.#sleepTimer = new Timer(options.clock, () => this.#wakeSleeper?.());
  }

  /** Runs until the hooks say stop. */
  async run(): Promise<void> {
    const { hosts, reconnectDelay } = this.#options;
    let attempt = 0;
    let first = true;
    while (!this.#hooks.stopped()) {
      if (!first) {
        const passes = Math.floor(attempt / hosts.size);
        const delay = reconnectDelay(attempt, passes);
        await this.#sleep(passes > 0 ? Math.max(MIN_PAUSE_AFTER_PASS_MS, delay) : delay);
        if (this.#hooks.stopped()) break;
      }
      first = false;
      const established = await this.#connectOnce(hosts.next());
      attempt = established ? 0 : attempt + 1;
      if (attempt > 0 && attempt % hosts.size === 0 && !this.#hooks.stopped()) this.#hooks.passFailed(attempt);
    }
  }

  /** The next connect attempt goes to `endpoint` (then the ring goes on from there). */
  preferNext(endpoint: Endpoint): void {
    this.#options.hosts.preferNext(endpoint);
  }

  /** Gives up on a connection still being opened (the transport is told through its signal). */
  abortConnect(): void {
    this.#connectAbort?.abort();
  }

  /** The session ended: cut the pause short and abandon any connect in progress. */
  stop(): void {
    this.#wakeSleeper?.();
    this.#connectAbort?.abort();
  }

  #sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.#wakeSleeper = () => {
        this.#wakeSleeper = undefined;
        this.#sleepTimer.cancel();
        resolve();
      };
      this.#sleepTimer.arm(ms);
    });
  }

  /** One connection attempt and, if it succeeds, the connection's whole life. True if a session was established. */
  async #connectOnce(entry: Endpoint): Promise<boolean> {
    const conn = new Connection(++this.#connections, `${entry.host}:${entry.port}`, this.#options.maxFrameSize, entry);
    const hooks = this.#hooks;
    hooks.begin(conn);
    const abort = new AbortController();
    this.#connectAbort = abort;
    const handlers = {
      onData: (chunk: Uint8Array) => hooks.data(conn, chunk),
      onClose: (error?: Error) => {
        conn.streamClosed();
        hooks.drop(conn, clientError('CONNECTIONLOSS', error === undefined ? `${conn.description} closed the connection` : error.message, { cause: error }));
      },
    };
    void this.#open(conn, entry, handlers, abort.signal);
    await conn.ended;
    if (this.#connectAbort === abort) this.#connectAbort = undefined;
    return conn.handshakeDone;
  }

  /**
   * Resolves the host (when there is a resolver: with none, the transport is called in this very turn) and opens
   * the stream; a failure of either ends the attempt. The connect timer and abortConnect bound both through `signal`.
   */
  async #open(conn: Connection, entry: Endpoint, handlers: ByteStreamHandlers, signal: AbortSignal): Promise<void> {
    const { resolver, random, transport } = this.#options;
    try {
      const endpoint = resolver === undefined ? entry : await resolveEndpoint(entry, resolver, random, signal);
      if (conn.isOver) return;
      conn.endpoint = endpoint;
      const stream = await transport.connect(endpoint, handlers, { signal });
      if (conn.isOver) {
        stream.close();
        return;
      }
      conn.attach(stream);
      this.#hooks.opened(conn);
    } catch (e) {
      // The transport's reason (refused, unreachable, a certificate the TLS handshake rejected) goes into the
      // message as well as the cause: it is what a user needs to see when connect() gives up.
      const detail = e instanceof Error ? `: ${e.message}` : '';
      this.#hooks.drop(conn, clientError('CONNECTIONLOSS', `cannot connect to ${conn.description}${detail}`, { cause: e }));
    }
  }
}
