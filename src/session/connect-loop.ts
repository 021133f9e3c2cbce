/**
 * The connect loop: takes the hosts in the host provider's turn, resolves the host's name when a resolver is
 * given (again on every attempt), opens a connection through the transport, lives
 * through that connection until it ends, then pauses as the reconnect policy says and tries the next.
 * The policy is asked once per pass over the hosts (and before the first reconnect after a link ends); between hosts
 * inside a pass there is no pause, as in the Java client, whose HostProvider sleeps only after a full round.
 * What happens on the connection (handshake, frames, loss) is the session's: the loop only dials and waits.
 */

import { clientError, type ZooKeeperError } from '../errors.js';
import type { ByteStreamHandlers, Endpoint, Transport } from '../transport/types.js';
import { Timer, type Clock } from './clock.js';
import { Connection } from './connection.js';
import type { HostProvider } from './host-provider.js';
import { resolveEndpoint, type Resolver } from './resolve.js';
import { exponentialBackoff, type RetryPolicy } from './retry-policy.js';

/** After a fruitless pass over every host, wait at least this long whatever the policy says: never spin. */
const MIN_PAUSE_AFTER_PASS_MS = 10;

/**
 * Hopeless passes in a row that end a loop with `giveUpWhenHopeless`: two, not one, because a host name is resolved
 * again on every attempt (resolve.ts), so a member replaced behind its name may be found on the next pass.
 */
const HOPELESS_PASSES = 2;

/**
 * The default reconnect policy: forever, a pause of 100–200 ms before the first reconnect (so many clients cut off
 * together do not stampede one server; the Java client sleeps 0–1000 ms, a large share of a short session timeout),
 * then doubling after each fruitless pass over the hosts up to 500–1000 ms (the Java HostProvider's 1 s).
 */
export const DEFAULT_RECONNECT_POLICY: RetryPolicy = exponentialBackoff({ baseDelayMs: 200, maxDelayMs: 1000, maxRetries: Infinity });

export interface ConnectLoopOptions {
  readonly clock: Clock;
  readonly hosts: HostProvider;
  readonly transport: Transport;
  /** Resolves each host before each attempt; none: the transport is given the host as it is. */
  readonly resolver?: Resolver | undefined;
  /** Picks among a host's addresses. */
  readonly random: () => number;
  readonly reconnect: RetryPolicy;
  readonly maxFrameSize: number;
  /**
   * End the loop (as a policy giving up does) after HOPELESS_PASSES passes in which every host refused the connection
   * or answered as something other than ZooKeeper, as long as no session was ever established: waiting mends neither.
   */
  readonly giveUpWhenHopeless: boolean;
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
  /**
   * A whole pass over the hosts ended without a session (`attempts` failed since the link was last up), or the
   * reconnect policy gave up (`final`: the loop has ended).
   */
  passFailed(attempts: number, final: boolean): void;
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
    const { hosts, reconnect, clock } = this.#options;
    let attempt = 0;
    /** Hopeless attempts in a row (see hopeless), or -Infinity once a session was established. */
    let hopelessRun = this.#options.giveUpWhenHopeless ? 0 : -Infinity;
    // When the run of failures began: the link's end, or the first attempt of a client never connected.
    let downSince = clock.now();
    while (!this.#hooks.stopped()) {
      const conn = await this.#connectOnce(hosts.next());
      const established = conn.handshakeDone;
      if (established) downSince = clock.now();
      attempt = established ? 0 : attempt + 1;
      hopelessRun = established ? -Infinity : hopeless(conn) ? hopelessRun + 1 : Math.min(hopelessRun, 0);
      // Inside a pass the next host is tried at once; the policy speaks after a link ends and after each pass.
      if (this.#hooks.stopped() || attempt % hosts.size !== 0) continue;
      const passes = attempt / hosts.size;
      const delay = hopelessRun >= HOPELESS_PASSES * hosts.size ? undefined : reconnect.nextDelay(passes, clock.now() - downSince);
      if (passes > 0 || delay === undefined) this.#hooks.passFailed(attempt, delay === undefined);
      if (delay === undefined) break;
      await this.#sleep(passes > 0 ? Math.max(MIN_PAUSE_AFTER_PASS_MS, delay) : delay);
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

  /** One connection attempt and, if it succeeds, the connection's whole life; returns the ended connection. */
  async #connectOnce(entry: Endpoint): Promise<Connection> {
    const conn = new Connection(++this.#connections, entry, this.#options.maxFrameSize);
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
    return conn;
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

/**
 * Whether a failed attempt says that trying again soon is pointless: nothing listens on the port (Node's and Bun's
 * ECONNREFUSED, Deno's ConnectionRefused), or what answered is not ZooKeeper (receive.ts: PROTOCOL_ERROR before the
 * handshake, such as an HTTP port).
 */
function hopeless(conn: Connection): boolean {
  const reason = conn.reason;
  const cause = reason?.cause as { code?: unknown; name?: unknown } | undefined;
  return reason?.code === 'PROTOCOL_ERROR' || cause?.code === 'ECONNREFUSED' || cause?.name === 'ConnectionRefused';
}
