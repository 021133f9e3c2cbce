import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { startFaultProxy, type FaultProxy, type ReplyInfo } from '../harness/fault-proxy.js';
import { fourLetterWord, parseServerMode } from '../../src/testing/local-server/four-letter-client.js';
import {
  connectRequestFrame,
  createFrame,
  existsFrame,
  OP_EXISTS,
  pingFrame,
  readConnectResponse,
  readReplyHeader,
} from '../harness/hand-frames.js';
import { RawSocket } from '../harness/raw-socket.js';
import { sharedServer, type SharedServer } from '../harness/zookeeper.js';

const NONODE = -101;

/**
 * A plain recording pipe (no framing, no faults) between the fault proxy and the server: what it records is exactly
 * what went through the proxy, to compare with what the client sent and received.
 */
async function startTee(upstream: { host: string; port: number }) {
  const c2s: Buffer[] = [];
  const s2c: Buffer[] = [];
  const sockets = new Set<net.Socket>();
  // allowHalfOpen: a four-letter-word client half-closes after its command and still reads the answer.
  const server = net.createServer({ allowHalfOpen: true }, (inbound) => {
    const outbound = net.connect({ host: upstream.host, port: upstream.port, allowHalfOpen: true });
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('error', () => {
        inbound.destroy();
        outbound.destroy();
      });
    }
    inbound.on('data', (chunk: Buffer) => (c2s.push(chunk), outbound.write(chunk)));
    outbound.on('data', (chunk: Buffer) => (s2c.push(chunk), inbound.write(chunk)));
    inbound.on('end', () => outbound.end());
    outbound.on('end', () => inbound.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return {
    host: '127.0.0.1',
    port: address.port,
    c2s: () => new Uint8Array(Buffer.concat(c2s)),
    s2c: () => new Uint8Array(Buffer.concat(s2c)),
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

let zk: SharedServer;
let tee: Awaited<ReturnType<typeof startTee>>;
let proxy: FaultProxy;
const sockets: RawSocket[] = [];

beforeAll(async () => {
  zk = await sharedServer();
  tee = await startTee(zk);
  proxy = await startFaultProxy(tee);
});
afterEach(async () => {
  proxy.pass();
  for (const s of sockets.splice(0)) s.destroy();
  await vi.waitFor(() => expect(proxy.connections()).toBe(0));
});
afterAll(async () => {
  await proxy?.close();
  await tee?.close();
});

/** A raw connection through the proxy with a fresh session; returns the socket and the ConnectResponse frame. */
async function connectedThroughProxy(): Promise<{ socket: RawSocket; response: Uint8Array }> {
  const socket = await RawSocket.connect(proxy.port);
  sockets.push(socket);
  await socket.write(connectRequestFrame());
  return { socket, response: await socket.nextFrame() };
}

describe('fault proxy in pass mode', () => {
  it('carries a hand-built ConnectRequest and the 37-byte ConnectResponse byte for byte', async () => {
    const request = connectRequestFrame(30_000);
    // A ConnectRequest as the Java client sends it: 45-byte payload, new session, timeout 30000, readOnly byte 0.
    expect(hex(request)).toBe(`0000002d00000000000000000000000000007530000000000000000000000010${'00'.repeat(16)}00`);
    const c2sBefore = tee.c2s().length;
    const s2cBefore = tee.s2c().length;
    const socket = await RawSocket.connect(proxy.port);
    sockets.push(socket);
    await socket.write(request);
    const response = await socket.nextFrame();

    const fields = readConnectResponse(response);
    expect(fields.payloadLength).toBe(37);
    expect(response.length).toBe(41);
    expect(fields.protocolVersion).toBe(0);
    expect(fields.timeOut).toBeGreaterThan(0);
    expect(fields.sessionId).not.toBe(0n);
    expect(hex(tee.c2s().subarray(c2sBefore))).toBe(hex(request));
    expect(hex(tee.s2c().subarray(s2cBefore))).toBe(hex(response));
  });

  it('serves many concurrent connections, each its own session', async () => {
    const responses = await Promise.all(Array.from({ length: 20 }, () => connectedThroughProxy()));
    const ids = responses.map(({ response }) => readConnectResponse(response).sessionId);
    expect(new Set(ids).size).toBe(20);
    expect(proxy.connections()).toBeGreaterThanOrEqual(20);
  });

  it('refuses an upstream that is not one host:port with BAD_ARGUMENT', async () => {
    for (const bad of ['127.0.0.1:99999', 'a:1,b:2', '']) {
      await expect(startFaultProxy(bad)).rejects.toMatchObject({ name: 'ZooKeeperError', code: 'BAD_ARGUMENT' });
    }
  });

  it('passes four-letter words and their text answers through', async () => {
    expect(await fourLetterWord('127.0.0.1', proxy.port, 'ruok')).toBe('imok');
    expect(parseServerMode(await fourLetterWord('127.0.0.1', proxy.port, 'srvr'))).toBe('standalone');
  });
});

describe('fault proxy faults', () => {
  it('pause holds bytes both ways and resume releases them', async () => {
    const { socket } = await connectedThroughProxy();
    const seenByServer = tee.c2s().length;
    const receivedBefore = socket.received.length;
    proxy.pause();
    await socket.write(pingFrame());
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(tee.c2s().length).toBe(seenByServer);
    expect(socket.received.length).toBe(receivedBefore);

    proxy.resume();
    const reply = readReplyHeader(await socket.nextFrame());
    expect(reply).toMatchObject({ xid: -2, err: 0 });
    expect(hex(tee.c2s().subarray(seenByServer))).toContain(hex(pingFrame()));
  });

  it('a link pauses, delays and resets its own connection only; pass() ends its faults too', async () => {
    const a = await connectedThroughProxy();
    const b = await connectedThroughProxy();
    const links = proxy.links();
    expect(links.map((l) => l.id)).toEqual([...links.map((l) => l.id)].sort((x, y) => x - y));
    const [linkA, linkB] = links.slice(-2);
    expect(linkA!.open && linkB!.open).toBe(true);
    expect(linkA!.clientPort).not.toBe(linkB!.clientPort);

    const beforeA = a.socket.received.length;
    linkA!.pause();
    await a.socket.write(pingFrame());
    await b.socket.write(pingFrame());
    expect(readReplyHeader(await b.socket.nextFrame())).toMatchObject({ xid: -2, err: 0 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(a.socket.received.length).toBe(beforeA); // held while B went on
    linkA!.resume();
    expect(readReplyHeader(await a.socket.nextFrame())).toMatchObject({ xid: -2, err: 0 });

    linkB!.dropReplies((f) => f.xid === -2);
    await b.socket.write(pingFrame());
    await a.socket.write(pingFrame());
    expect(readReplyHeader(await a.socket.nextFrame())).toMatchObject({ xid: -2 });
    proxy.pass(); // the link's drop ends with the proxy's faults
    await b.socket.write(pingFrame());
    expect(readReplyHeader(await b.socket.nextFrame())).toMatchObject({ xid: -2, err: 0 });

    linkB!.reset();
    await vi.waitFor(() => expect(linkB!.open).toBe(false));
    expect(linkA!.open).toBe(true);
  });

  it('keeps frames intact and in order under delay', async () => {
    const { socket } = await connectedThroughProxy();
    proxy.delay(50);
    await socket.write(existsFrame(1, '/'));
    await socket.write(pingFrame());
    await socket.write(existsFrame(2, `/t-${randomUUID()}`));
    const replies = [await socket.nextFrame(), await socket.nextFrame(), await socket.nextFrame()].map(readReplyHeader);
    expect(replies.map((r) => [r.xid, r.err])).toEqual([
      [1, 0],
      [-2, 0],
      [2, NONODE],
    ]);
  });

  it('keeps real time for its delays while the test runs on fake timers', async () => {
    const { socket } = await connectedThroughProxy();
    vi.useFakeTimers();
    try {
      proxy.delay(50);
      await socket.write(pingFrame());
      expect(readReplyHeader(await socket.nextFrame())).toMatchObject({ xid: -2, err: 0 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('dropReplies swallows the replies it matches, knowing the opcode of each request by xid', async () => {
    const { socket } = await connectedThroughProxy();
    const seen: ReplyInfo[] = [];
    proxy.dropReplies((f) => {
      seen.push(f);
      return f.opcode === OP_EXISTS;
    });
    await socket.write(existsFrame(1, '/'));
    await socket.write(pingFrame());
    expect(readReplyHeader(await socket.nextFrame()).xid).toBe(-2);
    expect(seen).toEqual([
      { xid: 1, opcode: OP_EXISTS },
      { xid: -2, opcode: 11 },
    ]);

    proxy.pass();
    await socket.write(existsFrame(2, '/'));
    expect(readReplyHeader(await socket.nextFrame())).toMatchObject({ xid: 2, err: 0 });
  });

  it('cutAfterXid resets the client after the server got the request, which it executes', async () => {
    const { socket } = await connectedThroughProxy();
    const path = `/t-${randomUUID()}`;
    const receivedBefore = socket.received.length;
    proxy.cutAfterXid(1);
    await socket.write(createFrame(1, path));
    expect(await socket.closed).toBe('ECONNRESET');
    expect(socket.received.length).toBe(receivedBefore); // the create reply never arrived
    await vi.waitFor(() => expect(proxy.connections()).toBe(0));

    // A direct connection sees the node: the request reached the server before the cut.
    const direct = await RawSocket.connect(zk.port, zk.host);
    sockets.push(direct);
    await direct.write(connectRequestFrame());
    await direct.nextFrame();
    await direct.write(existsFrame(1, path));
    expect(readReplyHeader(await direct.nextFrame())).toMatchObject({ xid: 1, err: 0 });
  });

  it('resetAll resets every connection, and new connections still work', async () => {
    const a = await connectedThroughProxy();
    const b = await connectedThroughProxy();
    expect(proxy.connections()).toBe(2);
    proxy.resetAll();
    expect(await a.socket.closed).toBe('ECONNRESET');
    expect(await b.socket.closed).toBe('ECONNRESET');
    const c = await connectedThroughProxy();
    expect(readConnectResponse(c.response).timeOut).toBeGreaterThan(0);
  });

  it('injectToClient writes raw bytes to every client as they are', async () => {
    const a = await connectedThroughProxy();
    const b = await connectedThroughProxy();
    const garbage = Uint8Array.from([0x7f, 0xff, 0xff, 0xff, 1, 2, 3]);
    proxy.injectToClient(garbage);
    for (const { socket, response } of [a, b]) {
      await socket.waitForBytes(response.length + garbage.length);
      expect(hex(socket.received.subarray(response.length))).toBe(hex(garbage));
    }
  });
});
