/**
 * Transport over node:net and node:tls (also what Bun and Deno's Node compatibility provide).
 *
 * Nagle is switched off: the session already coalesces each tick's requests into one write, so waiting
 * for more bytes would only add latency. Until the socket is open, failures reject `connect`; after
 * that they are reported through `onClose`, exactly once.
 */

import * as net from 'node:net';
import * as tls from 'node:tls';
import * as dns from 'node:dns/promises';
import type { ByteStream, ByteStreamHandlers, ConnectOptions, Endpoint, TlsOptions, Transport } from './types.js';
import { probeTls } from './tls-probe.js';
import { serverSpeaksTls } from './tls-failure.js';

/** Options of `nodeTransport`. */
export interface NodeTransportOptions {
  /** Connect with TLS: `true` for defaults, or node:tls options (ca, cert, key, servername, …). */
  readonly tls?: boolean | tls.ConnectionOptions;
}

class NodeByteStream implements ByteStream {
  readonly #socket: net.Socket;
  readonly #onClosing: () => void;
  readonly description: string;

  constructor(socket: net.Socket, description: string, onClosing: () => void) {
    this.#socket = socket;
    this.description = description;
    this.#onClosing = onClosing;
  }

  write(chunk: Uint8Array): void {
    if (this.#socket.destroyed || !this.#socket.writable) return;
    this.#socket.write(chunk);
  }

  close(): void {
    this.#onClosing();
    this.#socket.destroy();
  }
}

/**
 * A Transport over node:net (or node:tls with `options.tls`), the Node entry's default. Its `withTls` takes every
 * field of the client options' `tls` (ca, cert, key, servername) on Node, Bun and Deno's Node layer alike.
 */
export function nodeTransport(options: NodeTransportOptions = {}): Transport {
  const useTls = options.tls !== undefined && options.tls !== false;
  // What the plaintext probe found per server, so a server that closes on us again and again is probed once.
  const speaksTls = new Map<string, boolean>();
  return {
    resolver: nodeResolver,
    withTls: (more: true | TlsOptions) =>
      nodeTransport({ tls: { ...(typeof options.tls === 'object' ? options.tls : {}), ...nodeTlsOptions(more) } }),
    connect(endpoint: Endpoint, handlers: ByteStreamHandlers, { signal }: ConnectOptions): Promise<ByteStream> {
      return new Promise<ByteStream>((resolve, reject) => {
        if (signal.aborted) {
          reject(abortError(signal));
          return;
        }
        const where = `${endpoint.host}:${endpoint.port}`;
        const description = `${where}${useTls ? ' (tls)' : ''}`;
        const socket: net.Socket = useTls
          ? tls.connect({
              host: endpoint.address ?? endpoint.host,
              port: endpoint.port,
              ...(net.isIP(endpoint.host) === 0 ? { servername: endpoint.host } : {}),
              ...(typeof options.tls === 'object' ? options.tls : {}),
            })
          : net.connect({ host: endpoint.address ?? endpoint.host, port: endpoint.port });
        socket.setNoDelay(true);
        let open = false;
        let closed = false;
        let closedByUs = false;
        let received = 0;
        let failure: Error | undefined;

        const onAbort = (): void => {
          if (!open) {
            socket.destroy();
            reject(abortError(signal));
          }
        };
        signal.addEventListener('abort', onAbort, { once: true });

        socket.once(useTls ? 'secureConnect' : 'connect', () => {
          signal.removeEventListener('abort', onAbort);
          if (signal.aborted) return;
          open = true;
          resolve(new NodeByteStream(socket, description, () => (closedByUs = true)));
        });
        socket.on('data', (chunk: Buffer) => {
          received += chunk.byteLength;
          if (open) handlers.onData(chunk);
        });
        socket.on('error', (err) => {
          failure ??= err;
          if (!open) {
            signal.removeEventListener('abort', onAbort);
            reject(err);
          }
        });
        socket.on('close', () => {
          if (!open) {
            signal.removeEventListener('abort', onAbort);
            reject(failure ?? new Error(`connection to ${description} closed before it opened`));
            return;
          }
          if (closed) return;
          closed = true;
          // A ZooKeeper server answers a ConnectRequest or says why it will not; a TLS port closes a plaintext
          // connection without a byte. That silence is the only sign, so ask once whether TLS is spoken there:
          // without this a client missing `tls` retries until its deadline with nothing but "closed".
          if (!useTls && !closedByUs && failure === undefined && received === 0) {
            const known = speaksTls.get(where);
            const found = known === undefined ? probeTls(endpoint) : Promise.resolve(known);
            void found.then((yes) => {
              speaksTls.set(where, yes);
              handlers.onClose(yes ? serverSpeaksTls(where) : undefined);
            });
            return;
          }
          handlers.onClose(failure);
        });
      });
    },
  };
}

/**
 * nodeTransport's `resolver`: every address node:dns's lookup (the system resolver, as `net.connect`
 * itself uses) gives for the host, asked again before each connect attempt. An IP literal is returned as it is.
 */
export async function nodeResolver(host: string): Promise<readonly string[]> {
  if (net.isIP(host) !== 0) return [host];
  const found = await dns.lookup(host, { all: true });
  return found.map((a) => a.address);
}

/** The client options' `tls` in node:tls's words: the same fields (checked by the client), `ca` as a mutable array. */
function nodeTlsOptions(options: true | TlsOptions): tls.ConnectionOptions {
  if (options === true) return {};
  const { ca, ...rest } = options;
  return { ...rest, ...(ca === undefined ? {} : { ca: typeof ca === 'string' ? ca : [...ca] }) };
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('connect aborted');
}
