/**
 * A web-stream socket made from a node:net socket (`Duplex.toWeb`), so the web transport can be tested
 * under Node against a real server. It has the Cloudflare shape (readable, writable, opened, closed,
 * close) and keeps the node socket reachable so tests can see whether it was really released.
 */

import { connect as netConnect, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import type { StreamSocket, StreamSocketAddress } from '../../src/transport/web.js';

export interface NodeStreamSocket extends StreamSocket {
  readonly node: Socket;
}

export interface NodeStreamSocketOptions {
  /** Hold `opened` until this settles: a stand-in for a slow TLS handshake, so aborts can land mid-connect. */
  readonly openGate?: Promise<void>;
}

export function nodeStreamSocket(address: StreamSocketAddress, options: NodeStreamSocketOptions = {}): NodeStreamSocket {
  const node = netConnect({ host: address.hostname, port: address.port });
  node.setNoDelay(true);
  const connected = new Promise<void>((resolve, reject) => {
    node.once('connect', resolve);
    node.once('error', reject);
  });
  const opened = options.openGate === undefined ? connected : Promise.all([connected, options.openGate]).then(() => undefined);
  const closed = new Promise<void>((resolve, reject) => {
    let failure: Error | undefined;
    node.on('error', (err) => (failure = err));
    node.once('close', () => (failure === undefined ? resolve() : reject(failure)));
  });
  // Rejections of these are observed by the transport; mark them handled so a test that skips the
  // transport (or aborts early) does not trip Node's unhandled-rejection check.
  opened.catch(() => undefined);
  closed.catch(() => undefined);
  const { readable, writable } = Duplex.toWeb(node);
  return {
    node,
    readable: readable as unknown as StreamSocket['readable'],
    writable: writable as unknown as StreamSocket['writable'],
    opened,
    closed,
    close: async () => {
      node.destroy();
    },
  };
}
