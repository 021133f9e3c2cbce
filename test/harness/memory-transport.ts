/**
 * The tests' one in-memory Transport. Two ways to play the server:
 * - by hand (no server given): the test reads what the client wrote (`takeFrames`) and answers with `send` and
 *   `end`, delivered at once; the session's unit tests drive it with golden bytes.
 * - through a MemoryServer (the fuzzers' hostile server): bytes both ways are queued and delivered only by
 *   `pump()`, never from inside the write that produced them, as a real socket never calls back into its writer;
 *   a client handler that throws is recorded in `thrown` (over a real socket that is an uncaught exception).
 * Either way it counts the streams still open, so a test can assert that close() left none behind.
 */

import type { ByteStream, ByteStreamHandlers, ConnectOptions, Endpoint, Transport } from '../../src/transport/types.js';

/** A scripted server: it may refuse a connection, and gets a link to the client for each one it accepts. */
export interface MemoryServer {
  refuses(): boolean;
  /** Returns where the client's bytes go. */
  accept(link: { send(bytes: Uint8Array): void; close(): void }): (chunk: Uint8Array) => void;
}

/** Bytes from a hex string. */
export function fromHex(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'hex'));
}

/** One client connection of a MemoryTransport. */
export class MemoryStream implements ByteStream {
  readonly written: Uint8Array[] = [];
  closed = false;
  readonly description: string;
  /** Set when a MemoryServer plays the other end. */
  toServer: ((chunk: Uint8Array) => void) | undefined;

  constructor(
    private readonly handlers: ByteStreamHandlers,
    readonly endpoint: Endpoint,
    private readonly transport: MemoryTransport,
  ) {
    this.description = `${endpoint.host}:${endpoint.port} (${transport.server === undefined ? 'memory' : 'hostile'})`;
  }

  write(chunk: Uint8Array): void {
    if (this.closed) return;
    const copy = chunk.slice();
    const toServer = this.toServer;
    if (toServer === undefined) this.written.push(copy);
    else this.transport.later(() => !this.closed && toServer(copy));
  }

  close(): void {
    if (this.transport.server === undefined) this.end();
    else this.transport.later(() => this.end());
  }

  /** The server sends bytes (given as hex strings, concatenated). */
  send(...hexes: string[]): void {
    this.receive(fromHex(hexes.join('')));
  }

  /** The server sends bytes: at once when played by hand, at the next pump() through a MemoryServer. */
  receive(bytes: Uint8Array): void {
    if (this.transport.server === undefined) {
      if (!this.closed) this.handlers.onData(bytes);
      return;
    }
    const copy = bytes.slice();
    this.transport.later(() => {
      if (!this.closed) this.transport.call('onData', () => this.handlers.onData(copy));
    });
  }

  /** The server closes the connection. */
  end(error?: Error): void {
    if (this.closed) return;
    this.closed = true;
    this.transport.closed();
    this.transport.call('onClose', () => this.handlers.onClose(error));
  }

  /** Everything the client wrote, split into frames (hex, length prefix included); consumes it. */
  takeFrames(): string[] {
    const all = Buffer.concat(this.written.splice(0));
    const frames: string[] = [];
    for (let at = 0; at + 4 <= all.length; ) {
      const len = all.readInt32BE(at);
      frames.push(all.subarray(at, at + 4 + len).toString('hex'));
      at += 4 + len;
    }
    return frames;
  }

  /** How many transport writes the client made (not yet taken). */
  get writes(): number {
    return this.written.length;
  }
}

export class MemoryTransport implements Transport {
  readonly streams: MemoryStream[] = [];
  readonly attempts: Endpoint[] = [];
  /** When set, connect attempts fail (a host that refuses). */
  refuse = false;
  /** When set, connect attempts never settle until aborted (a black hole). */
  hang = false;
  /** Exceptions thrown by the client's handlers, when a MemoryServer plays the other end. */
  readonly thrown: string[] = [];
  private queue: (() => void)[] = [];
  private live = 0;

  constructor(readonly server?: MemoryServer) {}

  connect(endpoint: Endpoint, handlers: ByteStreamHandlers, { signal }: ConnectOptions): Promise<ByteStream> {
    this.attempts.push(endpoint);
    if (signal.aborted) return Promise.reject(new Error('connect aborted'));
    if (this.refuse || this.server?.refuses() === true) return Promise.reject(new Error(`connection to ${endpoint.host}:${endpoint.port} refused`));
    if (this.hang) {
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
    }
    const stream = new MemoryStream(handlers, endpoint, this);
    this.live++;
    this.streams.push(stream);
    if (this.server !== undefined) {
      stream.toServer = this.server.accept({ send: (bytes) => stream.receive(bytes), close: () => this.later(() => stream.end()) });
    }
    return Promise.resolve(stream);
  }

  /** Streams not yet closed. */
  get openStreams(): number {
    return this.live;
  }

  get last(): MemoryStream {
    const s = this.streams[this.streams.length - 1];
    if (s === undefined) throw new Error('no connection was opened');
    return s;
  }

  /** Delivers everything queued so far (not what those deliveries queue in turn). Returns false if idle. */
  pump(): boolean {
    if (this.queue.length === 0) return false;
    const batch = this.queue;
    this.queue = [];
    for (const job of batch) job();
    return true;
  }

  /** @internal A delivery for the next pump(). */
  later(job: () => void): void {
    this.queue.push(job);
  }

  /** @internal A stream closed. */
  closed(): void {
    this.live--;
  }

  /** @internal Runs a client handler; through a MemoryServer a throw is recorded instead of propagated. */
  call(what: string, fn: () => void): void {
    if (this.server === undefined) return fn();
    try {
      fn();
    } catch (e) {
      this.thrown.push(`${what} handler threw ${describeThrown(e)}`);
    }
  }
}

function describeThrown(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : `non-Error thrown: ${String(e)}`;
}
