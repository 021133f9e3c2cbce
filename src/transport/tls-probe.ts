/**
 * Does a server speak TLS? One TLS handshake attempt that trusts anything and presents nothing, bounded in time.
 *
 * Used after a plaintext connection was closed without a byte (see node.ts): a TLS server answers the ClientHello
 * (with its certificate, or with an alert once it misses ours), while a plaintext ZooKeeper reads the ClientHello as
 * an oversized frame length and closes. Nothing is ever sent after the handshake, so trusting anything here exposes
 * nothing.
 */

import * as tls from 'node:tls';
import { NOT_TLS } from './tls-failure.js';
import type { Endpoint } from './types.js';

/** Long enough for a JVM's handshake on a loaded machine; the probe only runs after a connection closed unanswered. */
const PROBE_TIMEOUT_MS = 3000;

/** Resolves true if the server at `endpoint` answers a TLS handshake, false otherwise (never rejects). */
export function probeTls(endpoint: Endpoint): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = tls.connect({ host: endpoint.host, port: endpoint.port, rejectUnauthorized: false });
    const timer = setTimeout(() => finish(false), PROBE_TIMEOUT_MS);
    function finish(speaks: boolean): void {
      clearTimeout(timer);
      socket.destroy();
      resolve(speaks);
    }
    socket.once('secureConnect', () => finish(true));
    socket.once('error', (err: Error & { code?: string }) => {
      // An alert (handshake failure, certificate required) is TLS speaking; a reset or a non-TLS record is not.
      const code = err.code ?? '';
      finish(code.startsWith('ERR_SSL_') && !NOT_TLS.test(code));
    });
    socket.once('close', () => finish(false));
  });
}
