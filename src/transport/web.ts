/**
 * Transport over web-stream sockets: `{ readable, writable, closed, opened?, close() }`, the shape edge
 * runtimes hand out (Cloudflare workerd's `connect()` from 'cloudflare:sockets'); Deno's connections have
 * the same streams and reuse this adapter (deno.ts).
 *
 * The runtime's `connect` function is passed in, so this module imports nothing runtime-specific and
 * compiles with no DOM types: the few stream members it touches are declared below, structurally.
 */

import { clientError } from '../errors.js';
import type { ByteStream, ByteStreamHandlers, ConnectOptions, Endpoint, TlsOptions, Transport } from './types.js';

/** The part of a ReadableStreamDefaultReader this adapter uses. */
export interface StreamReader {
  /** Reads the next chunk. */
  read(): Promise<{ done: true; value?: undefined } | { done: false; value: Uint8Array }>;
  /** Stops reading. */
  cancel(reason?: unknown): Promise<void>;
}

/** The part of a WritableStreamDefaultWriter this adapter uses. */
export interface StreamWriter {
  /** Writes a chunk. */
  write(chunk: Uint8Array): Promise<void>;
  /** Stops writing and drops what is queued. */
  abort(reason?: unknown): Promise<void>;
}

/** A socket made of two web streams, as Cloudflare's `connect()` returns it. */
export interface StreamSocket {
  readonly readable: {
    /** Locks the receiving stream to one reader. */
    getReader(): StreamReader;
  };
  readonly writable: {
    /** Locks the sending stream to one writer. */
    getWriter(): StreamWriter;
  };
  /** Settles when the socket is closed; rejects on a socket error. Optional: Deno's connections lack it. */
  readonly closed?: Promise<unknown>;
  /** Resolves once the connection (and TLS handshake) is established. Optional: older workerd lacks it. */
  readonly opened?: Promise<unknown>;
  /** Closes the socket. */
  close(): Promise<unknown> | void;
}

/** Where a stream socket connects. */
export interface StreamSocketAddress {
  hostname: string;
  port: number;
}

/** The options the transport passes to the runtime's connect. */
export interface StreamSocketOptions {
  secureTransport: 'off' | 'on';
  /** false: the socket closes as a whole when the peer ends its side (a ZooKeeper session cannot half-close). */
  allowHalfOpen: boolean;
}

/** The runtime's connect function. May return the socket or a promise of it (Deno's connect is async). */
export type StreamSocketConnect = (
  address: StreamSocketAddress,
  options: StreamSocketOptions,
) => StreamSocket | Promise<StreamSocket>;

/** Options of {@link streamSocketTransport}. */
export interface StreamSocketTransportOptions {
  /** Ask the runtime for TLS (Cloudflare's `secureTransport: 'on'`). Default false. */
  readonly secureTransport?: boolean;
}

/**
 * A Transport over a runtime's stream sockets (a socket made of a ReadableStream and a WritableStream). Example for
 * Cloudflare Workers: `import { connect } from 'cloudflare:sockets'; streamSocketTransport(connect)`. Its `withTls`
 * asks for `secureTransport: 'on'`: the runtime verifies the server against its public roots, and takes no CA of
 * ours, no client certificate and no other server name, so those options are refused with BAD_ARGUMENT.
 */
export function streamSocketTransport(connect: StreamSocketConnect, options: StreamSocketTransportOptions = {}): Transport {
  const secure = options.secureTransport === true;
  return {
    withTls: (tls: true | TlsOptions) => {
      const unsupported = tls === true ? [] : (['ca', 'cert', 'key', 'servername'] as const).filter((k) => tls[k] !== undefined);
      if (unsupported.length > 0) {
        throw clientError(
          'BAD_ARGUMENT',
          `tls.${unsupported.join(', tls.')}: stream sockets (workerd's connect()) verify the server against the runtime's own roots and present no client certificate`,
          { op: 'connect' },
        );
      }
      return streamSocketTransport(connect, { secureTransport: true });
    },
    connect: (endpoint, handlers, connectOptions) =>
      openStreamSocket(
        (address) => connect(address, { secureTransport: secure ? 'on' : 'off', allowHalfOpen: false }),
        endpoint,
        handlers,
        connectOptions,
        secure,
      ),
  };
}

/**
 * Opens one socket and wraps it as a ByteStream. Exported for adapters whose runtime needs its own connect
 * options (deno.ts); `open` receives the endpoint as a `{hostname, port}` address.
 */
export async function openStreamSocket(
  open: (address: StreamSocketAddress) => StreamSocket | Promise<StreamSocket>,
  endpoint: Endpoint,
  handlers: ByteStreamHandlers,
  { signal }: ConnectOptions,
  secure: boolean,
): Promise<ByteStream> {
  const description = `${endpoint.host.includes(':') ? `[${endpoint.host}]` : endpoint.host}:${endpoint.port}${secure ? ' (tls)' : ''}`;
  if (signal.aborted) throw abortError(signal, description);
  const socket = await untilAborted(
    // A resolved address is dialled over plain TCP only: these runtimes take one name for both dialling and the
    // certificate check, so under TLS the host name the connect string gave is what must be used.
    Promise.resolve().then(() => open({ hostname: secure ? endpoint.host : (endpoint.address ?? endpoint.host), port: endpoint.port })),
    signal,
    description,
    // A socket that arrives after the caller gave up is closed at once, so it cannot leak.
    closeQuietly,
  );
  // Watch `closed` from the start: a rejection nobody listens to would be an unhandled rejection.
  const closed = socket.closed === undefined ? undefined : socket.closed.then(() => undefined, (e: unknown) => toError(e));
  if (socket.opened !== undefined) {
    const failedBeforeOpen =
      closed === undefined
        ? undefined
        : closed.then((e) => Promise.reject(e ?? new Error(`${description}: socket closed before it opened`)));
    try {
      await untilAborted(
        failedBeforeOpen === undefined ? socket.opened : Promise.race([socket.opened, failedBeforeOpen]),
        signal,
        description,
      );
    } catch (err) {
      closeQuietly(socket);
      throw err;
    }
  }
  let reader: StreamReader;
  let writer: StreamWriter;
  try {
    reader = socket.readable.getReader();
    writer = socket.writable.getWriter();
  } catch (err) {
    closeQuietly(socket);
    throw toError(err);
  }
  const stream = new StreamSocketConnection(socket, reader, writer, handlers, description);
  stream.start(closed);
  return stream;
}

/** The open connection: a serialized write queue, a read pump, and one onClose for every way it can end. */
class StreamSocketConnection implements ByteStream {
  readonly description: string;
  readonly #socket: StreamSocket;
  readonly #reader: StreamReader;
  readonly #writer: StreamWriter;
  readonly #handlers: ByteStreamHandlers;
  /** Chunks waiting for the write in flight; they go out in this order. */
  #queue: Uint8Array[] = [];
  #queuedBytes = 0;
  #writing = false;
  #ended = false;

  constructor(
    socket: StreamSocket,
    reader: StreamReader,
    writer: StreamWriter,
    handlers: ByteStreamHandlers,
    description: string,
  ) {
    this.#socket = socket;
    this.#reader = reader;
    this.#writer = writer;
    this.#handlers = handlers;
    this.description = description;
  }

  start(closed: Promise<Error | undefined> | undefined): void {
    void this.#pumpReads();
    // The read side normally reports the end first; `closed` covers a runtime that errors the socket
    // without erroring its readable.
    if (closed !== undefined) void closed.then((err) => this.#end(err));
  }

  write(chunk: Uint8Array): void {
    if (this.#ended || chunk.byteLength === 0) return;
    this.#queue.push(chunk);
    this.#queuedBytes += chunk.byteLength;
    if (!this.#writing) void this.#drain();
  }

  close(): void {
    this.#end(undefined);
  }

  /**
   * One writer.write at a time: the stream would queue for us, but waiting for each write lets the
   * chunks that pile up meanwhile go out as one (fewer syscalls under a burst) and lets a failed write
   * end the connection before more bytes are handed to a broken socket.
   */
  async #drain(): Promise<void> {
    this.#writing = true;
    try {
      while (this.#queue.length > 0 && !this.#ended) {
        await this.#writer.write(this.#takeQueued());
      }
    } catch (err) {
      this.#end(toError(err));
    } finally {
      this.#writing = false;
    }
  }

  #takeQueued(): Uint8Array {
    const queue = this.#queue;
    const total = this.#queuedBytes;
    this.#queue = [];
    this.#queuedBytes = 0;
    if (queue.length === 1) return queue[0] as Uint8Array;
    const joined = new Uint8Array(total);
    let offset = 0;
    for (const chunk of queue) {
      joined.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return joined;
  }

  async #pumpReads(): Promise<void> {
    try {
      for (;;) {
        const result = await this.#reader.read();
        if (this.#ended) return;
        if (result.done) break;
        if (result.value.byteLength > 0) this.#handlers.onData(result.value);
      }
      this.#end(undefined);
    } catch (err) {
      this.#end(toError(err));
    }
  }

  /** The single exit: whatever ends the connection first wins, later causes are ignored. */
  #end(error: Error | undefined): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#queue = [];
    this.#queuedBytes = 0;
    // Teardown failures are expected here (the socket may already be dead) and say nothing new.
    this.#reader.cancel().catch(ignore);
    this.#writer.abort().catch(ignore);
    closeQuietly(this.#socket);
    // Deferred so a close() called from inside a handler does not re-enter the session synchronously.
    queueMicrotask(() => this.#handlers.onClose(error));
  }
}

/** Resolves with `promise` unless `signal` aborts first; a value that arrives after the abort goes to `late`. */
function untilAborted<T>(
  promise: Promise<T>,
  signal: AbortSignal,
  description: string,
  late?: (value: T) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const onAbort = (): void => {
      settled = true;
      reject(abortError(signal, description));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        if (settled) late?.(value);
        else resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        if (!settled) reject(toError(err));
      },
    );
  });
}

function abortError(signal: AbortSignal, description: string): Error {
  return clientError('ABORTED', `connect to ${description} aborted`, { cause: signal.reason });
}

function closeQuietly(socket: StreamSocket): void {
  try {
    const result = socket.close();
    if (result !== undefined) result.then(ignore, ignore);
  } catch {
    // Already closed or never fully opened: nothing left to release.
  }
}

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

function ignore(): void {}
