/**
 * An in-memory Transport between the client and the hostile server. Bytes in both directions are queued and
 * delivered only when the fuzzer pumps, never from inside the write that produced them: a real socket never
 * calls back into the writer synchronously, and re-entrancy the session never meets in production would only
 * produce false alarms. A handler that throws is recorded: over a real socket that is an uncaught exception.
 */

import type { ByteStream, ByteStreamHandlers, ConnectOptions, Endpoint, Transport } from '../../../src/transport/types.js';
import type { HostileServer } from './hostile-server.js';
import { describeThrown } from './violation.js';

export class MemoryTransport implements Transport {
  private queue: (() => void)[] = [];
  /** Streams opened and not yet closed (by either side). */
  open = 0;
  /** Exceptions thrown by the client's handlers (each one would crash a real process). */
  readonly thrown: string[] = [];

  constructor(private readonly server: HostileServer) {}

  connect(endpoint: Endpoint, handlers: ByteStreamHandlers, options: ConnectOptions): Promise<ByteStream> {
    if (options.signal.aborted) return Promise.reject(new Error('connect aborted'));
    if (this.server.refuses()) return Promise.reject(new Error(`connection to ${endpoint.host}:${endpoint.port} refused`));
    let closed = false;
    this.open++;
    const closeOnce = (): void => {
      if (closed) return;
      closed = true;
      this.open--;
      this.call('onClose', () => handlers.onClose());
    };
    const toClient = this.server.accept({
      send: (bytes) => {
        const copy = bytes.slice();
        this.queue.push(() => {
          if (!closed) this.call('onData', () => handlers.onData(copy));
        });
      },
      close: () => this.queue.push(closeOnce),
    });
    const stream: ByteStream = {
      description: `${endpoint.host}:${endpoint.port} (hostile)`,
      write: (chunk) => {
        if (closed) return;
        const copy = chunk.slice();
        this.queue.push(() => {
          if (!closed) toClient(copy);
        });
      },
      close: () => this.queue.push(closeOnce),
    };
    return Promise.resolve(stream);
  }

  private call(what: string, fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.thrown.push(`${what} handler threw ${describeThrown(e)}`);
    }
  }

  /** Delivers everything queued so far (not what those deliveries queue in turn). Returns false if idle. */
  pump(): boolean {
    if (this.queue.length === 0) return false;
    const batch = this.queue;
    this.queue = [];
    for (const job of batch) job();
    return true;
  }
}
