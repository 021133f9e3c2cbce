/**
 * The web-stream transport (src/transport/web.ts) under Node: node:net sockets turned into web streams,
 * talking to a real ZooKeeper. The test speaks the protocol by hand, so what is checked is the transport:
 * bytes arrive whole and in order, writes keep their order, the stream ends exactly once, aborts work.
 */

import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZooKeeperError } from '../../src/errors.js';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import type { Endpoint } from '../../src/transport/types.js';
import { streamSocketTransport, type StreamSocketAddress } from '../../src/transport/web.js';
import { sharedServer } from '../harness/zookeeper.js';
import { nodeStreamSocket, type NodeStreamSocket } from './node-stream-socket.js';
import { framesOrEnd, openStream, type Opened } from './stream-checks.js';
import {
  closeSessionFrame,
  connectRequestFrame,
  existsFrame,
  parseConnectResponse,
  parseReplyHeader,
} from './zk-frames.js';

let zk: Endpoint;

beforeAll(async () => {
  const { connectString } = await sharedServer();
  const first = connectString.split(',')[0] ?? '';
  const colon = first.lastIndexOf(':');
  zk = { host: first.slice(0, colon), port: Number(first.slice(colon + 1)) };
});

/** A transport that remembers every socket it made, so tests can check they were released. */
function recordingTransport(gate?: Promise<void>) {
  const sockets: NodeStreamSocket[] = [];
  const transport = streamSocketTransport((address: StreamSocketAddress) => {
    const socket = nodeStreamSocket(address, gate === undefined ? {} : { openGate: gate });
    sockets.push(socket);
    return socket;
  });
  return { transport, sockets };
}

type OpenedStream = Opened;

function open(transport = recordingTransport().transport, signal = new AbortController().signal): Promise<OpenedStream> {
  return openStream(transport, zk, signal);
}

/** Sends a ConnectRequest and returns the server's ConnectResponse. */
async function handshake(s: OpenedStream) {
  s.stream.write(connectRequestFrame(10_000));
  const [payload] = await framesOrEnd(s, 1);
  return parseConnectResponse(payload!);
}

/** Lets queued callbacks run, so a second (wrong) onClose would have been seen. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('web transport against a real ZooKeeper', () => {
  it('carries a ConnectRequest/ConnectResponse exchange and reports the peer ending the stream', async () => {
    const s = await open();
    expect(s.stream.description).toBe(`${zk.host}:${zk.port}`);
    const reply = await handshake(s);
    expect(reply.protocolVersion).toBe(0);
    expect(reply.timeOut).toBeGreaterThan(0);
    expect(reply.sessionId).not.toBe(0n);
    expect(reply.passwd?.length).toBe(16);

    // closeSession: the server replies, then closes its end; that end is our onClose, with no error.
    s.stream.write(closeSessionFrame(1));
    const frames = await s.frames.waitFor(2);
    expect(parseReplyHeader(frames[1]!)).toMatchObject({ xid: 1, err: 0 });
    expect(await s.closed).toBeUndefined();
    await settle();
    expect(s.closes).toEqual([undefined]);
  });

  it('keeps the order of many small writes', async () => {
    const s = await open();
    await handshake(s);
    // 300 requests, each cut into 1..7-byte pieces written back to back: one piece out of order and the
    // server sees a corrupt frame and drops us, or replies come back with other xids.
    const count = 300;
    let pieces = 0;
    for (let xid = 1; xid <= count; xid++) {
      const frame = existsFrame(xid, xid % 2 === 0 ? '/' : '/zookeeper');
      for (let at = 0; at < frame.length; ) {
        const size = 1 + ((xid + at) % 7);
        s.stream.write(frame.subarray(at, at + size));
        at += size;
        pieces++;
      }
    }
    expect(pieces).toBeGreaterThan(count * 4);
    const frames = await framesOrEnd(s, 1 + count);
    const headers = frames.slice(1).map(parseReplyHeader);
    expect(headers.map((h) => h.xid)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    expect(headers.every((h) => h.err === ErrorCode.OK)).toBe(true);
    expect(s.closes).toEqual([]);
    s.stream.close();
    await s.closed;
  });

  it('close() ends the stream once, releases the socket and ignores later writes and closes', async () => {
    const { transport, sockets } = recordingTransport();
    const s = await open(transport);
    await handshake(s);
    s.stream.close();
    s.stream.close();
    expect(() => s.stream.write(existsFrame(1, '/'))).not.toThrow();
    expect(await s.closed).toBeUndefined();
    await settle();
    expect(s.closes).toEqual([undefined]);
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.node.destroyed).toBe(true);
    // Nothing is delivered after close: the one frame is the handshake reply.
    expect(s.frames.frames).toHaveLength(1);
  });

  it('reports a socket error through onClose, once, with the error', async () => {
    const { transport, sockets } = recordingTransport();
    const s = await open(transport);
    await handshake(s);
    sockets[0]!.node.destroy(new Error('link broke'));
    const err = await s.closed;
    expect(err).toBeInstanceOf(Error);
    s.stream.close();
    await settle();
    expect(s.closes).toHaveLength(1);
  });

  it('rejects connect to a port nobody listens on, without calling onClose', async () => {
    const closedPort = await unusedPort();
    const closes: unknown[] = [];
    const transport = streamSocketTransport((address) => nodeStreamSocket(address));
    await expect(
      transport.connect(
        { host: '127.0.0.1', port: closedPort },
        { onData: () => undefined, onClose: (e) => closes.push(e) },
        { signal: new AbortController().signal },
      ),
    ).rejects.toThrow(/ECONNREFUSED/);
    expect(closes).toEqual([]);
  });
});

describe('web transport aborts', () => {
  let silent: Server;
  const held: Socket[] = [];
  beforeAll(async () => {
    // Accepts and never answers: a handshake that never completes.
    silent = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('an already aborted signal rejects with ABORTED before any socket is made', async () => {
    const { transport, sockets } = recordingTransport();
    const err = await open(transport, AbortSignal.abort()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZooKeeperError);
    expect((err as ZooKeeperError).code).toBe('ABORTED');
    expect(sockets).toHaveLength(0);
  });

  it('aborting while the socket is still opening rejects with ABORTED and closes the socket', async () => {
    const gate = new Promise<void>(() => undefined); // the handshake never finishes
    const { transport, sockets } = recordingTransport(gate);
    const controller = new AbortController();
    const pending = open(transport, controller.signal);
    // Abort once TCP is up, so it lands while `opened` waits on the (never finishing) handshake.
    await until(() => sockets[0]?.node.readyState === 'open');
    controller.abort(new Error('deadline'));
    const err = await pending.catch((e: unknown) => e);
    expect((err as ZooKeeperError).code).toBe('ABORTED');
    expect(((err as ZooKeeperError).cause as Error).message).toBe('deadline');
    await until(() => sockets[0]!.node.destroyed);
    expect(sockets[0]!.node.destroyed).toBe(true);
  });

  it('a socket that arrives after the abort is closed at once', async () => {
    let release!: () => void;
    const late = new Promise<void>((resolve) => (release = resolve));
    const made: NodeStreamSocket[] = [];
    // An async connect (like Deno's) that only hands its socket over after the caller gave up.
    const transport = streamSocketTransport(async (address) => {
      await late;
      const socket = nodeStreamSocket(address);
      made.push(socket);
      return socket;
    });
    const controller = new AbortController();
    const pending = transport.connect(zk, { onData: () => undefined, onClose: () => undefined }, { signal: controller.signal });
    controller.abort();
    expect(((await pending.catch((e: unknown) => e)) as ZooKeeperError).code).toBe('ABORTED');
    release();
    await until(() => made[0]?.node.destroyed === true);
    expect(made[0]!.node.destroyed).toBe(true);
  });

  it('a silent server does not end the stream by itself; close() does', async () => {
    const port = (silent.address() as { port: number }).port;
    const transport = streamSocketTransport((address) => nodeStreamSocket(address));
    const closes: unknown[] = [];
    const stream = await transport.connect(
      { host: '127.0.0.1', port },
      { onData: () => undefined, onClose: (e) => closes.push(e) },
      { signal: new AbortController().signal },
    );
    stream.write(connectRequestFrame(10_000));
    await settle();
    expect(closes).toEqual([]);
    stream.close();
    await settle();
    expect(closes).toEqual([undefined]);
  });
});

/** Waits for a condition that an event outside the test's control makes true (the test timeout bounds it). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
