/**
 * The client side of the in-memory server: a Transport whose streams are in-memory pipes to it. A client opened
 * with `{ transport: server.transport }` speaks the real wire protocol to the server, byte for byte, with no socket.
 */

import type { ByteStream, ByteStreamHandlers, ConnectOptions, Endpoint, Transport } from '../../transport/types.js';
import type { ClientLink } from './connection.js';
import type { DeliveryQueue } from './delivery.js';

/** What the transport needs of the server. */
export interface Acceptor {
  readonly host: string;
  readonly port: number;
  /** False once the server is closed: connections are refused. */
  readonly accepting: boolean;
  /** A new connection: returns where the client's bytes go and what to call when the client closes. */
  accept(link: ClientLink): { receive(chunk: Uint8Array): void; clientClosed(): void };
}

class MemoryStream implements ByteStream {
  readonly description: string;
  #open = true;
  #server: { receive(chunk: Uint8Array): void; clientClosed(): void } | undefined;

  constructor(
    private readonly handlers: ByteStreamHandlers,
    private readonly queue: DeliveryQueue,
    endpoint: Endpoint,
  ) {
    this.description = `${endpoint.host}:${endpoint.port} (in-memory)`;
  }

  attach(server: { receive(chunk: Uint8Array): void; clientClosed(): void }): void {
    this.#server = server;
  }

  write(chunk: Uint8Array): void {
    if (!this.#open) return;
    const copy = new Uint8Array(chunk); // a copy, also of a Node Buffer (whose slice() is a view)
    this.queue.push(() => this.#open && this.#server?.receive(copy));
  }

  close(): void {
    if (!this.#open) return;
    this.queue.push(() => {
      this.#server?.clientClosed();
      this.end();
    });
  }

  /** Bytes from the server, queued by the server's link. */
  deliver(bytes: Uint8Array): void {
    this.queue.push(() => this.#open && this.handlers.onData(bytes));
  }

  /** Ends the stream (once): onClose. */
  end(): void {
    if (!this.#open) return;
    this.#open = false;
    this.handlers.onClose();
  }
}

/** A Transport to `server`: any other host is refused, as a closed port is. */
export function inMemoryTransport(server: Acceptor, queue: DeliveryQueue): Transport {
  return {
    connect(endpoint: Endpoint, handlers: ByteStreamHandlers, { signal }: ConnectOptions): Promise<ByteStream> {
      if (signal.aborted) return Promise.reject(new Error('connect aborted'));
      if (!server.accepting || endpoint.host !== server.host || endpoint.port !== server.port) {
        return Promise.reject(new Error(`connection to ${endpoint.host}:${endpoint.port} refused (in-memory ZooKeeper at ${server.host}:${server.port}${server.accepting ? '' : ' is closed'})`));
      }
      const stream = new MemoryStream(handlers, queue, endpoint);
      stream.attach(
        server.accept({
          send: (bytes) => stream.deliver(bytes),
          close: () => queue.push(() => stream.end()),
        }),
      );
      return Promise.resolve(stream);
    },
  };
}
