/**
 * The TCP skeleton under both proxies (the kit's fault proxy and the tools' tracing proxy): listen, dial the server
 * for every client, cut both directions into frames (frame-splitter.ts), pass bytes on with backpressure, pass a
 * half-close on as a half-close and a reset as a reset, and tell the proxy who ended each connection and how. What
 * a proxy does with the frames is its own decision, in a {@link ConnectionHandler}: the fault proxy holds, drops or
 * cuts them; the tracer decodes them. It lives in testing/ because that is the lower of the two floors (tools
 * stand on testing). Node only (`node:net`).
 */

import net from 'node:net';
import { ConnectionSplitter, type Direction, type Piece } from './frame-splitter.js';

/** Which side ended a connection first: a peer's FIN or error, or the proxy stopping. */
export type EndedBy = 'client' | 'server' | 'proxy';

/** What a proxy decides for one connection. */
export interface ConnectionHandler {
  /** Whole frames (or raw pieces) that arrived from `dir`'s sender, in order; each piece is a copy. */
  frames(dir: Direction, pieces: readonly Piece[]): void;
  /** `dir`'s sender half-closed (FIN). Default: pass the FIN on at once. */
  end?(dir: Direction): void;
  /** Both sockets are closed: who ended the connection first, its first socket error, and the bytes of an incomplete frame each way. */
  closed(by: EndedBy, error: string | undefined, held: Record<Direction, Uint8Array>): void;
}

/** Options of {@link startFramingProxy}. */
export interface FramingProxyOptions<H extends ConnectionHandler> {
  /** Where to listen; port 0 picks a free one. */
  listen: { host: string; port: number };
  /** Opens the connection to the server for a client just accepted (plain TCP, or TLS). */
  dial(): net.Socket;
  /** Longest frame each way; a longer or negative length prefix turns that direction raw for good. */
  maxFrame: Record<Direction, number>;
  /**
   * Forward every chunk the moment it arrives, before the handler sees its frames (the tracer: a transparent proxy
   * keeps the peers' own segmentation); otherwise the handler forwards with {@link ProxyConnection.write}.
   */
  passChunks: boolean;
  /** Makes the handler of a connection just accepted. */
  accept(connection: ProxyConnection): H;
}

/** One client connection and its connection to the server. */
export class ProxyConnection {
  /** 1 for the proxy's first connection, then counting up. */
  readonly id: number;
  readonly client: net.Socket;
  readonly server: net.Socket;
  #by: EndedBy | undefined;
  #error: string | undefined;

  constructor(id: number, client: net.Socket, server: net.Socket) {
    this.id = id;
    this.client = client;
    this.server = server;
  }

  /** Writes toward `dir`'s receiver (nothing once it is closed), pausing the sender while the receiver's buffer is full. */
  write(dir: Direction, bytes: Uint8Array): void {
    const [from, to] = this.#ends(dir);
    if (to.destroyed || !to.writable) return;
    if (!to.write(bytes)) from.pause();
  }

  /** Half-closes toward `dir`'s receiver (FIN), after what was written. */
  end(dir: Direction): void {
    const to = this.#ends(dir)[1];
    if (!to.destroyed && to.writable) to.end();
  }

  /** Resets (RST) one side, or both. */
  reset(side?: 'client' | 'server'): void {
    if (side !== 'server') resetSocket(this.client);
    if (side !== 'client') resetSocket(this.server);
  }

  /** Records the first end and the first error; `by: 'proxy'` wins, as a stop ends whatever was still going on. */
  ended(by: EndedBy, error?: string): void {
    this.#by = by === 'proxy' ? by : (this.#by ?? by);
    this.#error ??= error;
  }

  get endedBy(): EndedBy {
    return this.#by ?? 'proxy';
  }

  get error(): string | undefined {
    return this.#error;
  }

  #ends(dir: Direction): [net.Socket, net.Socket] {
    return dir === 'c2s' ? [this.client, this.server] : [this.server, this.client];
  }
}

/** A listening framing proxy. */
export interface FramingProxy<H extends ConnectionHandler> {
  readonly host: string;
  readonly port: number;
  /** The handlers of the connections whose sockets are not both closed yet, oldest first. */
  connections(): readonly H[];
  /** Stops listening and ends every connection (`reset`: RST both sides; `destroy`: close them), once all are closed. */
  close(how: 'reset' | 'destroy'): Promise<void>;
}

/** Starts listening; every connection accepted is dialled through and framed until it closes. */
export async function startFramingProxy<H extends ConnectionHandler>(opts: FramingProxyOptions<H>): Promise<FramingProxy<H>> {
  const live = new Map<ProxyConnection, { handler: H; done: Promise<void> }>();
  let ids = 0;
  let stopping = false;
  // allowHalfOpen: a four-letter-word client half-closes after its command and still reads the answer.
  const server = net.createServer({ allowHalfOpen: true, noDelay: true }, (client) => {
    if (stopping) return void client.destroy();
    const connection = new ProxyConnection(++ids, client, opts.dial().setNoDelay(true));
    const handler = opts.accept(connection);
    live.set(connection, { handler, done: relay(connection, handler) });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: opts.listen.host, port: opts.listen.port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy: the listening socket has no TCP address');
  return {
    host: address.address,
    port: address.port,
    connections: () => [...live.values()].map((l) => l.handler),
    async close(how) {
      stopping = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const c of live.keys()) {
        c.ended('proxy');
        if (how === 'reset') c.reset();
        else [c.client, c.server].forEach((s) => s.destroy());
      }
      await Promise.all([closed, ...[...live.values()].map((l) => l.done)]);
    },
  };

  /** Wires one connection; settles when both sockets are closed and the handler has been told. */
  function relay(c: ProxyConnection, handler: H): Promise<void> {
    const { client, server: upstream } = c;
    const splitter = new ConnectionSplitter(opts.maxFrame);
    const wire = (dir: Direction, from: net.Socket, to: net.Socket, side: 'client' | 'server'): void => {
      from.on('data', (chunk: Buffer) => {
        if (opts.passChunks) c.write(dir, chunk);
        const pieces = splitter.push(dir, chunk);
        for (const d of ['c2s', 's2c'] as const) if (pieces[d].length > 0) handler.frames(d, pieces[d]);
      });
      to.on('drain', () => from.resume());
      from.on('end', () => {
        c.ended(side);
        if (handler.end === undefined) c.end(dir);
        else handler.end(dir);
      });
      // A reset or error on one side is passed on as a reset of the other, as a broken network path would look.
      from.on('error', (e: NodeJS.ErrnoException) => {
        c.ended(side, `${side}: ${e.code ?? e.message}`);
        c.reset(side === 'client' ? 'server' : 'client');
      });
      // Closed without an error before its peer's FIN (destroyed here): the other side gets a FIN.
      from.on('close', (hadError) => {
        if (!hadError && !to.destroyed && to.writable) to.end();
      });
    };
    wire('c2s', client, upstream, 'client');
    wire('s2c', upstream, client, 'server');
    // A socket whose reset failed reports the error and never 'close' (see resetSocket): either ends it.
    const gone = (s: net.Socket): Promise<void> =>
      new Promise((resolve) => (s.destroyed ? resolve() : s.once('close', () => resolve()).once('error', () => s.destroyed && resolve())));
    return Promise.all([gone(client), gone(upstream)]).then(() => {
      live.delete(c);
      handler.closed(c.endedBy, c.error, { c2s: splitter.takeHeld('c2s'), s2c: splitter.takeHeld('s2c') });
    });
  }
}

function resetSocket(socket: net.Socket): void {
  if (socket.destroyed) return;
  // A socket still connecting has no connection to reset; one that has sent its FIN cannot be reset (libuv refuses
  // after a shutdown, and Node then emits an error and never 'close').
  if (socket.connecting || socket.writableEnded) socket.destroy();
  else socket.resetAndDestroy();
}
