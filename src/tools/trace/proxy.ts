/**
 * The tracing proxy: a transparent TCP forwarder that any ZooKeeper client can be pointed at, decoding both
 * directions of every connection on a side copy. It is the framing proxy (testing/framing-proxy.ts) with a decoder
 * (connection.ts) as its decision.
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
import { startFramingProxy } from '../../testing/framing-proxy.js';
import { TracedConnection, type TraceClock } from './connection.js';
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
   * passes through undecoded. Keep it below 1.5 GiB: a four-letter word (`ruok`) is told from a session by its
   * first four bytes reading as a length above the limit.
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
  const stats = new TraceSummarizer();
  const emit = (event: CaptureEvent): void => {
    stats.add(event);
    opts.onEvent?.(event);
  };
  // Wall-clock µs that advance with the monotonic clock: latencies between events stay exact.
  const clock = opts.clock ?? systemClock;
  const wall0 = clock.wall();
  const mono0 = clock.mono();
  const nowUs = (): number => Math.round((wall0 + clock.mono() - mono0) * 1000);
  const { upstream: to, upstreamTls: secure } = opts;
  const maxFrameSize = opts.maxFrameSize ?? DEFAULT_TRACE_MAX_FRAME_SIZE;
  const proxy = await startFramingProxy({
    listen: opts.listen,
    dial: () =>
      secure === undefined
        ? net.connect({ host: to.host, port: to.port, allowHalfOpen: true, noDelay: true })
        : tls.connect({ host: to.host, port: to.port, ...nodeTlsOptions(secure) }),
    maxFrame: { c2s: maxFrameSize, s2c: maxFrameSize },
    passChunks: true,
    accept({ id, client }) {
      const conn = { id: String(id), client: `${client.remoteAddress ?? '?'}:${client.remotePort ?? '?'}`, server: `${to.host}:${to.port}` };
      emit({ type: 'open', conn, timeUs: nowUs(), midStream: false });
      return new TracedConnection(conn, { nowUs, emit });
    },
  });
  let stopping: Promise<TraceSummary> | undefined;
  return {
    host: proxy.host,
    port: proxy.port,
    connections: () => proxy.connections().length,
    summary: () => stats.summary(),
    stop: () => (stopping ??= proxy.close('destroy').then(() => stats.summary())),
  };
}
