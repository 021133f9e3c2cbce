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

/** What the fake server does with the request after the handshake. */
type Then = 'nothing' | 'close' | 'bad-frame' | 'reply-in-bytes';

/**
 * A server that answers the handshake with `sessionId` and then meets the next request as `then` says (drop the link,
 * send a negative length prefix, or answer it one byte per write), or closes at once.
 */
async function fakeServer(answer: { sessionId: bigint; then: Then } | 'close'): Promise<number> {
  server = net.createServer((socket) => {
    socket.once('data', () => {
      if (answer === 'close') return void socket.destroy();
      const w = new JuteWriter(64);
      encodeConnectResponseFrame(w, { protocolVersion: 0, timeOut: 30_000, sessionId: answer.sessionId, passwd: new Uint8Array(16) });
      socket.write(w.toBytes());
      socket.once('data', (request) => {
        if (answer.then === 'close') socket.destroy();
        if (answer.then === 'bad-frame') socket.write(Uint8Array.of(0xff, 0xff, 0xff, 0xf0, 1, 2, 3));
        if (answer.then === 'reply-in-bytes') {
          // ReplyHeader (xid of the request, zxid, err 0) and a create's path, cut into one-byte writes.
          const reply = new JuteWriter(64);
          reply.writeInt(request.readInt32BE(4));
          reply.writeLong(7n);
          reply.writeInt(0);
          reply.writeString('/x');
          const body = reply.toBytes();
          const frame = Buffer.alloc(4 + body.length);
          frame.writeInt32BE(body.length);
          frame.set(body, 4);
          for (const byte of frame) socket.write(Uint8Array.of(byte));
        }
      });
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
    const port = await fakeServer({ sessionId: 0n, then: 'nothing' });
    expect((await errorOf(RawConnection.open('127.0.0.1', port))).code).toBe('SESSIONEXPIRED');
  });

  it('a link lost under a request rejects it, and every later one, with CONNECTIONLOSS', async () => {
    const port = await fakeServer({ sessionId: 0x1234n, then: 'close' });
    const conn = await RawConnection.open('127.0.0.1', port);
    expect(conn.lost).toBe(false);
    // The reply never comes: the request settles with ZooKeeper's CONNECTIONLOSS code (-4), the link is lost.
    expect(await conn.create('/x')).toBe(-4);
    expect(conn.lost).toBe(true);
    expect((await errorOf(conn.create('/y'))).code).toBe('CONNECTIONLOSS');
  });

  it('reads a reply however TCP cuts it (the client frame decoder), and a broken frame ends the link with PROTOCOL_ERROR', async () => {
    const split = await RawConnection.open('127.0.0.1', await fakeServer({ sessionId: 0x1234n, then: 'reply-in-bytes' }));
    expect(await split.create('/x')).toBe(0);
    split.close().catch(() => undefined);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    const broken = await RawConnection.open('127.0.0.1', await fakeServer({ sessionId: 0x1234n, then: 'bad-frame' }));
    expect(await broken.create('/x')).toBe(-4);
    expect(broken.lost).toBe(true);
    expect(await errorOf(broken.create('/y'))).toMatchObject({ code: 'PROTOCOL_ERROR', message: expect.stringMatching(/negative frame length/) });
  });
});
