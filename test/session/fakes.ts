/**
 * Test doubles for unit tests of the session: an in-memory transport whose "server" side the test drives with
 * golden bytes (it counts what is still live, so a test can assert that close() left no stream behind). Their clock
 * is the tests' one fake clock, test/harness/manual-clock.ts.
 */

import type { ByteStream, ByteStreamHandlers, ConnectOptions, Endpoint, Transport } from '../../src/transport/types.js';

export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

export function fromHex(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'hex'));
}

/** One end of an in-memory connection; the test plays the server. */
export class MemoryStream implements ByteStream {
  readonly written: Uint8Array[] = [];
  closed = false;
  readonly description: string;

  constructor(
    private readonly handlers: ByteStreamHandlers,
    readonly endpoint: Endpoint,
    private readonly onClosed: () => void,
  ) {
    this.description = `${endpoint.host}:${endpoint.port} (memory)`;
  }

  write(chunk: Uint8Array): void {
    if (!this.closed) this.written.push(chunk.slice());
  }

  close(): void {
    this.end();
  }

  /** The server sends bytes (given as hex strings, concatenated). */
  send(...hexes: string[]): void {
    if (!this.closed) this.handlers.onData(fromHex(hexes.join('')));
  }

  /** The server closes the connection. */
  end(error?: Error): void {
    if (this.closed) return;
    this.closed = true;
    this.onClosed();
    this.handlers.onClose(error);
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
  private open = 0;

  connect(endpoint: Endpoint, handlers: ByteStreamHandlers, { signal }: ConnectOptions): Promise<ByteStream> {
    this.attempts.push(endpoint);
    if (this.refuse) return Promise.reject(new Error('connection refused'));
    if (this.hang) {
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
    }
    const stream = new MemoryStream(handlers, endpoint, () => this.open--);
    this.open++;
    this.streams.push(stream);
    return Promise.resolve(stream);
  }

  /** Streams not yet closed. */
  get openStreams(): number {
    return this.open;
  }

  get last(): MemoryStream {
    const s = this.streams[this.streams.length - 1];
    if (s === undefined) throw new Error('no connection was opened');
    return s;
  }
}

/** Lets queued microtasks (promise reactions, the session's write coalescing) run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
}

export { loadGolden as golden } from '../protocol/golden.js';
