/**
 * The tracing proxy: a transparent TCP forwarder that any ZooKeeper client can be pointed at, decoding both
 * directions of every connection on a side copy.
 *
 * Forwarding comes first and is unconditional: each chunk is written to the other socket the moment it arrives, before
 * it is looked at, and decoding works on the same (unmodified) chunk afterwards. The only thing that ever slows a
 * direction down is TCP backpressure from the receiving peer, exactly as a direct connection would. Resets are passed
 * on as resets and half-closes as half-closes, so a client sees the server's behaviour, not the proxy's.
 */

import net from 'node:net';
import tls from 'node:tls';
import type { TlsOptions } from '../../transport/types.js';
import { nodeTlsOptions } from '../shared/tls-options.js';
import { performance } from 'node:perf_hooks';
import type { CaptureEvent } from '../capture/events.js';
import { TracedConnection, type ClosedBy, type TraceClock } from './connection.js';
import { TraceSummarizer, type TraceSummary } from './summary.js';

/** A TCP address. */
export interface HostPort {
  host: string;
  port: number;
}

/** Options of `startTraceProxy`. */
export interface TraceProxyOptions {
  /** Where to listen; port 0 picks a free port (see TraceProxy.port). */
  listen: HostPort;
  /** The ZooKeeper server to forward to. */
  upstream: HostPort;
  /**
   * Speak TLS to the server (its secureClientPort), as the client option `tls` does; the client side stays
   * plaintext, which is what lets the proxy decode a TLS-only ensemble's traffic.
   */
  upstreamTls?: true | TlsOptions;
  /**
   * Every connection's opening, frames, undecodable stretches and close, in the order things happened (synchronously,
   * from socket events), as the capture events `zkwire decode` and `zkwire analyze` read from a capture file: the
   * proxy is one more capture source. Times are wall-clock µs advancing with the monotonic clock, so latencies keep
   * its precision; a connection's `id` is its number in accept order (`"1"`, `"2"`…), and its close says which side
   * ended it (`by`).
   */
  onEvent?: (event: CaptureEvent) => void;
  /**
   * Largest frame the tracer will buffer to decode (default 64 MiB, far above ZooKeeper's 1 MiB default so a server
   * with a raised jute.maxbuffer still decodes). A larger length prefix is reported and the rest of that direction
   * passes through undecoded.
   */
  maxFrameSize?: number;
  clock?: TraceClock;
}

/** A running tracing proxy. */
export interface TraceProxy {
  readonly host: string;
  readonly port: number;
  /** Open client connections. */
  connections(): number;
  /** The totals so far. */
  summary(): TraceSummary;
  /** Stops listening, cuts every connection (reporting each close), and returns the final totals. Idempotent. */
  stop(): Promise<TraceSummary>;
}

/** The largest frame the tracer buffers to decode by default: 64 MiB. */
export const DEFAULT_TRACE_MAX_FRAME_SIZE = 64 * 1024 * 1024;

const systemClock: TraceClock = { wall: () => Date.now(), mono: () => performance.now() };

/**
 * Starts a tracing proxy: listens on `listen`, forwards every connection to `upstream`, and reports every frame both
 * ways to `onEvent`.
 */
export async function startTraceProxy(opts: TraceProxyOptions): Promise<TraceProxy> {
  const proxy = new Proxy(opts);
  await proxy.listen();
  return proxy;
}

interface Link {
  client: net.Socket;
  upstream: net.Socket;
  traced: TracedConnection;
  done: Promise<void>;
}

class Proxy implements TraceProxy {
  readonly #opts: TraceProxyOptions;
  readonly #server: net.Server;
  readonly #stats = new TraceSummarizer();
  readonly #links = new Set<Link>();
  readonly #maxFrameSize: number;
  readonly #nowUs: () => number;
  #nextConn = 0;
  #address: HostPort | undefined;
  #stopping: Promise<TraceSummary> | undefined;

  constructor(opts: TraceProxyOptions) {
    this.#opts = opts;
    this.#maxFrameSize = opts.maxFrameSize ?? DEFAULT_TRACE_MAX_FRAME_SIZE;
    // Wall-clock µs that advance with the monotonic clock: latencies between events stay exact.
    const clock = opts.clock ?? systemClock;
    const wall0 = clock.wall();
    const mono0 = clock.mono();
    this.#nowUs = () => Math.round((wall0 + clock.mono() - mono0) * 1000);
    // allowHalfOpen: a four-letter-word client half-closes after its command and still reads the answer.
    this.#server = net.createServer({ allowHalfOpen: true, noDelay: true }, (socket) => this.#accept(socket));
  }

  get host(): string {
    return this.#bound().host;
  }

  get port(): number {
    return this.#bound().port;
  }

  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen({ host: this.#opts.listen.host, port: this.#opts.listen.port }, () => {
        this.#server.off('error', reject);
        const a = this.#server.address();
        if (a === null || typeof a === 'string') reject(new Error('trace proxy: listening socket has no TCP address'));
        else {
          this.#address = { host: a.address, port: a.port };
          resolve();
        }
      });
    });
  }

  connections(): number {
    return this.#links.size;
  }

  summary(): TraceSummary {
    return this.#stats.summary();
  }

  stop(): Promise<TraceSummary> {
    this.#stopping ??= (async () => {
      const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
      const links = [...this.#links];
      for (const link of links) {
        link.traced.close('proxy', undefined);
        link.client.destroy();
        link.upstream.destroy();
      }
      await Promise.all([closed, ...links.map((l) => l.done)]);
      return this.#stats.summary();
    })();
    return this.#stopping;
  }

  #bound(): HostPort {
    if (this.#address === undefined) throw new Error('trace proxy is not listening');
    return this.#address;
  }

  #emit(event: CaptureEvent): void {
    this.#stats.add(event);
    this.#opts.onEvent?.(event);
  }

  #accept(client: net.Socket): void {
    if (this.#stopping !== undefined) {
      client.destroy();
      return;
    }
    const conn = { id: String(++this.#nextConn), client: `${client.remoteAddress ?? '?'}:${client.remotePort ?? '?'}`, server: `${this.#opts.upstream.host}:${this.#opts.upstream.port}` };
    const { upstream: to } = this.#opts;
    const secure = this.#opts.upstreamTls;
    const upstream =
      secure === undefined
        ? net.connect({ host: to.host, port: to.port, allowHalfOpen: true, noDelay: true })
        : tls.connect({ host: to.host, port: to.port, ...nodeTlsOptions(secure) }).setNoDelay(true);
    client.setNoDelay(true);
    const traced = new TracedConnection(conn, { nowUs: this.#nowUs, emit: (e) => this.#emit(e) }, this.#maxFrameSize);
    this.#emit({ type: 'open', conn, timeUs: this.#nowUs(), midStream: false });

    let firstEnd: ClosedBy | undefined;
    let error: string | undefined;
    const ended = (by: ClosedBy): void => {
      firstEnd ??= by;
    };
    const gone = (s: net.Socket): Promise<void> => new Promise((resolve) => (s.destroyed ? resolve() : s.once('close', () => resolve())));
    const done = Promise.all([gone(client), gone(upstream)]).then(() => {
      this.#links.delete(link);
      traced.close(firstEnd ?? 'proxy', error);
    });
    const link: Link = { client, upstream, traced, done };
    this.#links.add(link);

    forward(client, upstream, (chunk) => traced.observe('c2s', chunk));
    forward(upstream, client, (chunk) => traced.observe('s2c', chunk));
    client.on('end', () => ended('client'));
    upstream.on('end', () => ended('server'));
    client.on('error', (e: NodeJS.ErrnoException) => {
      ended('client');
      error ??= `client: ${e.code ?? e.message}`;
      resetOrDestroy(upstream);
    });
    upstream.on('error', (e: NodeJS.ErrnoException) => {
      ended('server');
      error ??= `server: ${e.code ?? e.message}`;
      resetOrDestroy(client);
    });
  }
}

/**
 * Pipes `from` into `to` by hand (not stream.pipe) so each chunk is observed right after it is written, and so a
 * FIN is passed on as a FIN (end) while the other direction keeps flowing.
 */
function forward(from: net.Socket, to: net.Socket, observe: (chunk: Buffer) => void): void {
  from.on('data', (chunk: Buffer) => {
    if (!to.destroyed && !to.write(chunk)) from.pause();
    observe(chunk);
  });
  to.on('drain', () => from.resume());
  from.on('end', () => {
    if (!to.destroyed) to.end();
  });
  // A socket that closes without an error and without its peer having ended (e.g. destroy()) ends the other side too.
  from.on('close', (hadError) => {
    if (!hadError && !to.destroyed && to.writable) to.end();
  });
}

/** Passes a connection reset on as a reset (RST), so the other peer sees what really happened. */
function resetOrDestroy(s: net.Socket): void {
  if (s.destroyed) return;
  if (s.connecting || typeof s.resetAndDestroy !== 'function') s.destroy();
  else s.resetAndDestroy();
}
