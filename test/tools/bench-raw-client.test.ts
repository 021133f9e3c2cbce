/**
 * The bench's floor client (tools/bench/raw-client.ts) fails with coded errors, as the rest of zkwire does: a bench
 * whose floor connection drops (a member restarted by --kill-leader) reports CONNECTIONLOSS, not a bare Error. A
 * fake server, in addition to the real ones the bench tests use: it is the only way to drop a link on cue.
 */

import * as net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeConnectResponseFrame, JuteWriter } from '../../src/protocol/index.js';
import { RawConnection } from '../../src/tools/bench/raw-client.js';
import { errorOf } from '../client/helpers.js';

let server: net.Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/** A server that answers the handshake with `sessionId` (then, with `thenClose`, closes the link), or closes at once. */
async function fakeServer(answer: { sessionId: bigint; thenClose: boolean } | 'close'): Promise<number> {
  server = net.createServer((socket) => {
    socket.once('data', () => {
      if (answer === 'close') return void socket.destroy();
      const w = new JuteWriter(64);
      encodeConnectResponseFrame(w, { protocolVersion: 0, timeOut: 30_000, sessionId: answer.sessionId, passwd: new Uint8Array(16) });
      socket.write(w.toBytes());
      // The client's next request: the link drops instead of an answer.
      if (answer.thenClose) socket.once('data', () => socket.destroy());
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

describe('the floor client', () => {
  it('a link closed during the handshake rejects CONNECTIONLOSS', async () => {
    const port = await fakeServer('close');
    expect((await errorOf(RawConnection.open('127.0.0.1', port))).code).toBe('CONNECTIONLOSS');
  });

  it('a session the server refuses (no session id) rejects SESSIONEXPIRED', async () => {
    const port = await fakeServer({ sessionId: 0n, thenClose: false });
    expect((await errorOf(RawConnection.open('127.0.0.1', port))).code).toBe('SESSIONEXPIRED');
  });

  it('a link lost under a request rejects it, and every later one, with CONNECTIONLOSS', async () => {
    const port = await fakeServer({ sessionId: 0x1234n, thenClose: true });
    const conn = await RawConnection.open('127.0.0.1', port);
    expect(conn.lost).toBe(false);
    // The reply never comes: the request settles with ZooKeeper's CONNECTIONLOSS code (-4), the link is lost.
    expect(await conn.create('/x')).toBe(-4);
    expect(conn.lost).toBe(true);
    expect((await errorOf(conn.create('/y'))).code).toBe('CONNECTIONLOSS');
  });
});
