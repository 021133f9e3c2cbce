/**
 * Transport over Deno's own sockets (`Deno.connect` / `Deno.connectTls`).
 *
 * Deno connections carry a web-stream pair, so the byte pump is web.ts's; this file only opens the
 * connection. Deno's namespace is declared here, minimally and module-local, so the package builds
 * without Deno's types and still loads on runtimes that have no `Deno` (the check happens per connect).
 * Under Deno the node:net transport also works (Node compatibility); this one avoids that layer.
 */

import { clientError } from '../errors.js';
import type { TlsOptions, Transport } from './types.js';
import { openStreamSocket, type StreamSocket } from './web.js';

interface DenoConn {
  readonly readable: StreamSocket['readable'];
  readonly writable: StreamSocket['writable'];
  close(): void;
}

interface DenoTcpConn extends DenoConn {
  setNoDelay(noDelay?: boolean): void;
  setKeepAlive(keepAlive?: boolean): void;
}

interface DenoNamespace {
  connect(options: { hostname: string; port: number; transport: 'tcp'; signal?: AbortSignal }): Promise<DenoTcpConn>;
  connectTls(options: {
    hostname: string;
    port: number;
    caCerts?: string[];
    cert?: string;
    key?: string;
  }): Promise<DenoConn>;
}

declare const Deno: DenoNamespace | undefined;

/** TLS options of the Deno transport. */
export interface DenoTlsOptions {
  /** PEM root certificates trusted in addition to Deno's defaults (e.g. a private CA for the ensemble). */
  readonly caCerts?: readonly string[];
  /** PEM client certificate and key, for servers that require mutual TLS. */
  readonly cert?: string;
  readonly key?: string;
}

/** Options of `denoTransport`. */
export interface DenoTransportOptions {
  /** true or TLS options: connect with `Deno.connectTls`. Default: plain TCP. */
  readonly tls?: boolean | DenoTlsOptions;
}

/**
 * A Transport over `Deno.connect` (or `Deno.connectTls` with `options.tls`). Its `withTls` takes `ca`, `cert` and
 * `key`; not `servername` (Deno checks the certificate against the connect string's host and has no override).
 */
export function denoTransport(options: DenoTransportOptions = {}): Transport {
  const tls = options.tls === true ? {} : options.tls === false ? undefined : options.tls;
  return {
    withTls: (more: true | TlsOptions) => denoTransport({ tls: { ...tls, ...denoTlsOptions(more) } }),
    connect(endpoint, handlers, connectOptions) {
      const deno = typeof Deno === 'undefined' ? undefined : Deno;
      if (deno === undefined || typeof deno.connect !== 'function') {
        return Promise.reject(new Error('denoTransport needs the Deno runtime (no global Deno here)'));
      }
      const open = async (address: { hostname: string; port: number }): Promise<StreamSocket> => {
        const conn = tls === undefined ? await connectTcp(deno, address, connectOptions.signal) : await deno.connectTls({
          ...address,
          ...(tls.caCerts === undefined ? {} : { caCerts: [...tls.caCerts] }),
          ...(tls.cert === undefined ? {} : { cert: tls.cert }),
          ...(tls.key === undefined ? {} : { key: tls.key }),
        });
        return {
          readable: conn.readable,
          writable: conn.writable,
          close: () => conn.close(),
        };
      };
      return openStreamSocket(open, endpoint, handlers, connectOptions, tls !== undefined);
    },
  };
}

/** The client options' `tls` in Deno.connectTls's words. */
function denoTlsOptions(options: true | TlsOptions): DenoTlsOptions {
  if (options === true) return {};
  if (options.servername !== undefined) {
    throw clientError('BAD_ARGUMENT', 'tls.servername: Deno checks the certificate against the host of the connect string and takes no other name', { op: 'connect' });
  }
  return {
    ...(options.ca === undefined ? {} : { caCerts: typeof options.ca === 'string' ? [options.ca] : [...options.ca] }),
    ...(options.cert === undefined ? {} : { cert: options.cert }),
    ...(options.key === undefined ? {} : { key: options.key }),
  };
}

/**
 * Deno.connect takes a signal, which also cancels a connect that is still in progress (no half-open
 * attempt left keeping the process alive). But that signal keeps closing the connection for its whole
 * life, and the caller's signal may fire later for unrelated reasons (client close), so pass a private
 * one that follows the caller's only until the connection is up.
 */
async function connectTcp(
  deno: DenoNamespace,
  address: { hostname: string; port: number },
  signal: AbortSignal,
): Promise<DenoTcpConn> {
  const attempt = new AbortController();
  const follow = (): void => attempt.abort(signal.reason);
  signal.addEventListener('abort', follow, { once: true });
  try {
    const conn = await deno.connect({ ...address, transport: 'tcp', signal: attempt.signal });
    // ZooKeeper traffic is small request/response frames: Nagle's delay would only add latency.
    conn.setNoDelay(true);
    conn.setKeepAlive(true);
    return conn;
  } finally {
    signal.removeEventListener('abort', follow);
  }
}
