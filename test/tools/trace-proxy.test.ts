/**
 * The tracing proxy between real clients and a real ZooKeeper: bytes pass unchanged both ways (the capture equals
 * exactly what the client sent and received), many connections at once, undecodable frames and broken streams are
 * forwarded and reported, and every capture replays through the decode tool.
 */

import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { fourLetterWord } from '../../src/testing/local-server/four-letter-client.js';
import { decodeCapture } from '../../src/tools/decode/index.js';
import { freePort } from '../../src/testing/local-server/free-port.js';
import type { CaptureEvent, ConnectionCloseEvent, FrameEvent, GapEvent } from '../../src/tools/capture/events.js';
import { connectRequestFrame, createFrame, existsFrame, pingFrame, readConnectResponse, readReplyHeader } from '../harness/hand-frames.js';
import { RawSocket } from '../harness/raw-socket.js';
import { sharedServer } from '../harness/zookeeper.js';
import { capturedHex, eventually, hex, parseCapture, traceTo, type Traced } from './trace-helpers.js';
import { concatBytes } from '../../src/protocol/bytes.js';

let upstream: { host: string; port: number };
beforeAll(async () => {
  const first = (await sharedServer()).connectString.split(',')[0]!;
  const colon = first.lastIndexOf(':');
  upstream = { host: first.slice(0, colon), port: Number(first.slice(colon + 1)) };
});

let traced: Traced | undefined;
afterEach(async () => {
  await traced?.proxy.stop();
  traced = undefined;
});

const frames = (events: CaptureEvent[], conn?: number): FrameEvent[] =>
  events.filter((e): e is FrameEvent => e.type === 'frame' && (conn === undefined || e.conn.id === String(conn)));
const closeOf = (events: CaptureEvent[], conn: number): ConnectionCloseEvent | undefined =>
  events.find((e): e is ConnectionCloseEvent => e.type === 'close' && e.conn.id === String(conn));


/** A frame that frames correctly but whose getData body is cut short: the path claims 100 bytes, 3 follow. */
function truncatedGetDataFrame(xid: number): Uint8Array {
  const b = Buffer.alloc(4 + 15);
  b.writeInt32BE(15, 0);
  b.writeInt32BE(xid, 4);
  b.writeInt32BE(4, 8); // getData
  b.writeInt32BE(100, 12);
  b.write('abc', 16, 'latin1');
  return Uint8Array.from(b);
}

async function replay(capture: readonly string[]): Promise<{ ok: boolean; line: string }[]> {
  const out: { ok: boolean; line: string }[] = [];
  for await (const r of decodeCapture([capture.map((l) => `${l}\n`).join('')], { check: true })) {
    if (r.event.type === 'frame' || r.event.type === 'bad-line') out.push({ ok: r.ok, line: r.line });
  }
  return out;
}

/** Connects a raw socket through the proxy and completes the handshake; returns the socket, what it sent, the session. */
async function rawSession(port: number): Promise<{ raw: RawSocket; sent: Uint8Array[]; sessionId: bigint }> {
  const raw = await RawSocket.connect(port);
  const sent = [connectRequestFrame(10_000)];
  await raw.write(sent[0]!);
  const response = readConnectResponse(await raw.nextFrame());
  return { raw, sent, sessionId: response.sessionId };
}

describe('trace proxy with a raw client and a real server', () => {
  it('forwards every byte unchanged both ways, and the capture holds exactly those bytes', async () => {
    traced = await traceTo(upstream);
    const { raw, sent, sessionId } = await rawSession(traced.proxy.port);
    expect(sessionId).not.toBe(0n);
    const path = `/trace-${randomUUID()}`;
    const send = async (bytes: Uint8Array): Promise<void> => {
      sent.push(bytes);
      await raw.write(bytes);
    };
    await send(createFrame(1, path));
    expect(readReplyHeader(await raw.nextFrame()).err).toBe(0);
    await send(existsFrame(2, `${path}/missing`));
    expect(readReplyHeader(await raw.nextFrame()).err).toBe(-101);
    await send(pingFrame());
    expect(readReplyHeader(await raw.nextFrame()).xid).toBe(-2);
    // Two pipelined requests in one write: the proxy must not care how frames fall into chunks.
    await send(concatBytes([existsFrame(3, path), existsFrame(4, path)]));
    expect(readReplyHeader(await raw.nextFrame()).xid).toBe(3);
    expect(readReplyHeader(await raw.nextFrame()).xid).toBe(4);
    raw.destroy();
    const { events, capture } = traced;
    await eventually(() => closeOf(events, 1) !== undefined, 'the close event');

    expect(capturedHex(capture, 1, 'c2s')).toBe(hex(concatBytes(sent)));
    expect(capturedHex(capture, 1, 's2c')).toBe(hex(raw.received));
    const lines = parseCapture(capture);
    expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i));
    expect(lines.every((l) => l.len === (parseInt(l.hex.slice(0, 8), 16) | 0) && l.hex.length === 8 + 2 * l.len!)).toBe(true);

    const fs = frames(events, 1);
    expect(fs.map((f) => `${f.dir} ${f.frame.kind} ${f.frame.op ?? ''}`)).toEqual([
      'c2s connect-request ',
      's2c connect-response ',
      'c2s request create',
      's2c reply create',
      'c2s request exists',
      's2c reply exists',
      'c2s request ping',
      's2c reply ping',
      'c2s request exists',
      'c2s request exists',
      's2c reply exists',
      's2c reply exists',
    ]);
    expect(fs.every((f) => f.frame.error === undefined)).toBe(true);
    // The session id is known from the ConnectResponse on; every reply has a latency.
    expect(fs.slice(1).every((f) => f.sessionId === sessionId)).toBe(true);
    expect(fs.filter((f) => f.dir === 's2c').every((f) => f.latencyMs !== undefined && f.latencyMs >= 0)).toBe(true);
    expect(fs[5]!.frame.err).toBe(-101);
    expect(fs[5]!.frame.path).toBe(`${path}/missing`);

    const summary = traced.proxy.summary();
    expect(summary.ops['exists']).toMatchObject({ requests: 3, replies: 3, errors: { NONODE: 1 } });
    expect(summary.ops['exists']!.latencyMs!.count).toBe(3);
    expect(summary.ops['ping']).toMatchObject({ requests: 1, replies: 1 });
    expect(summary.errors).toEqual({ NONODE: 1 });
    expect(summary.bytes).toEqual({ c2s: concatBytes(sent).length, s2c: raw.received.length });

    expect((await replay(capture)).filter((r) => !r.ok)).toEqual([]);
  });

  it('passes an undecodable frame through, reports it, and still decodes what the server answers', async () => {
    traced = await traceTo(upstream);
    const { raw, sent } = await rawSession(traced.proxy.port);
    const bad = truncatedGetDataFrame(1);
    sent.push(bad);
    await raw.write(bad);
    // ZooKeeper cannot read the body either and answers MARSHALLINGERROR; the client must see exactly that.
    expect(readReplyHeader(await raw.nextFrame())).toMatchObject({ xid: 1, err: -5 });
    raw.destroy();
    const { events, capture } = traced;
    await eventually(() => closeOf(events, 1) !== undefined, 'the close event');

    const undecodable = frames(events, 1).find((f) => f.frame.error !== undefined);
    expect(undecodable?.frame.error).toMatch(/cannot decode getData request body/);
    expect(hex(undecodable!.bytes)).toBe(hex(bad));
    // The reply is still matched to the request's xid and op.
    const answer = frames(events, 1).at(-1)!;
    expect(answer.frame).toMatchObject({ kind: 'reply', xid: 1, op: 'getData', err: -5 });
    expect(answer.latencyMs).toBeGreaterThanOrEqual(0);
    expect(capturedHex(capture, 1, 'c2s')).toBe(hex(concatBytes(sent)));
    expect(capturedHex(capture, 1, 's2c')).toBe(hex(raw.received));
    expect(traced.proxy.summary().undecodable).toBe(1);
    expect(traced.proxy.summary().errors).toEqual({ MARSHALLINGERROR: 1 });
    // The capture replays; only the bad frame fails, as it should.
    const replayed = await replay(capture);
    expect(replayed.filter((r) => !r.ok)).toHaveLength(1);
  });

  it('reports a broken length prefix and passes the rest of the stream through undecoded', async () => {
    traced = await traceTo(upstream);
    const { raw, sent } = await rawSession(traced.proxy.port);
    const garbage = Uint8Array.from([0x7f, 0xff, 0xff, 0xff, 0xde, 0xad, 0xbe, 0xef]);
    sent.push(garbage);
    await raw.write(garbage);
    await raw.closed; // ZooKeeper refuses the length and closes
    const { events, capture } = traced;
    await eventually(() => closeOf(events, 1) !== undefined, 'the close event');

    const broken = events.filter((e): e is GapEvent => e.type === 'gap');
    expect(broken).toHaveLength(1);
    expect(broken[0]).toMatchObject({ dir: 'c2s', undecoded: { kind: 'unframed' }, continues: false });
    expect(broken[0]!.reason).toMatch(/frame length 2147483647 exceeds/);
    expect(capturedHex(capture, 1, 'c2s')).toBe(hex(concatBytes(sent)));
    expect(parseCapture(capture).at(-1)).toMatchObject({ dir: 'c2s', kind: 'unframed', hex: '7fffffffdeadbeef' });
  });

  it('shows a four-letter word as raw text and returns the same answer as the server directly', async () => {
    traced = await traceTo(upstream);
    const viaProxy = await fourLetterWord('127.0.0.1', traced.proxy.port, 'conf');
    const direct = await fourLetterWord(upstream.host, upstream.port, 'conf');
    expect(viaProxy).toBe(direct);
    const { events, capture } = traced;
    await eventually(() => closeOf(events, 1) !== undefined, 'the close event');
    const fs = frames(events, 1);
    expect(fs.map((f) => f.frame.kind)).toEqual(['4lw-command', '4lw-response']);
    expect(fs.map((f) => f.size)).toEqual([4, Buffer.byteLength(viaProxy)]);
    expect(capturedHex(capture, 1, 'c2s')).toBe(Buffer.from('conf').toString('hex'));
    expect(capturedHex(capture, 1, 's2c')).toBe(Buffer.from(viaProxy).toString('hex'));
  });

  it('stop() cuts open connections, reports them closed by the proxy and refuses new ones', async () => {
    traced = await traceTo(upstream);
    const { raw } = await rawSession(traced.proxy.port);
    const port = traced.proxy.port;
    const summary = await traced.proxy.stop();
    expect(await raw.closed).not.toBeUndefined();
    expect(closeOf(traced.events, 1)?.by).toBe('proxy');
    expect(summary.connections).toBe(1);
    expect(summary.ops['connect']).toMatchObject({ requests: 1, replies: 1 });
    await expect(RawSocket.connect(port)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('resets the client when the upstream refuses, and says why', async () => {
    const nothing = await freePort();
    traced = await traceTo({ host: '127.0.0.1', port: nothing });
    const raw = await RawSocket.connect(traced.proxy.port);
    await raw.closed;
    await eventually(() => closeOf(traced!.events, 1) !== undefined, 'the close event');
    expect(closeOf(traced.events, 1)?.error).toMatch(/server: ECONNREFUSED/);
  });
});

describe('trace proxy with real zkwire clients', () => {
  it('traces many concurrent sessions, each with its own connection and session id, and the capture replays cleanly', async () => {
    traced = await traceTo(upstream);
    const base = `/trace-${randomUUID()}`;
    const connectString = `127.0.0.1:${traced.proxy.port}`;
    const clients = await Promise.all(
      // No ensemble tracker: the summary below counts the ops these clients make, and only those.
      Array.from({ length: 6 }, () => ZooKeeperClient.connect(connectString, { sessionTimeoutMs: 10_000, trackEnsemble: false })),
    );
    try {
      await Promise.all(
        clients.map(async (c, i) => {
          const path = `${base}-${i}`;
          await c.create(path, new TextEncoder().encode(`v${i}`));
          expect(new TextDecoder().decode((await c.getData(path)).data)).toBe(`v${i}`);
        }),
      );
      // A notification: client 0 watches, client 1 changes the node.
      const watched = await clients[0]!.getData(`${base}-0`, { watch: true });
      await clients[1]!.setData(`${base}-0`, new TextEncoder().encode('changed'));
      await watched.watch;
      await Promise.all(clients.map((c, i) => c.delete(`${base}-${i}`)));
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
    const { events, capture, proxy } = traced;
    await eventually(() => proxy.connections() === 0, 'every connection to close');

    const conns = new Set(frames(events).map((f) => f.conn.id));
    expect(conns.size).toBe(6);
    const sessions = new Set(frames(events).filter((f) => f.frame.kind === 'connect-response').map((f) => f.sessionId));
    expect(sessions.size).toBe(6);
    expect(frames(events).every((f) => f.frame.error === undefined)).toBe(true);
    const notifications = frames(events).filter((f) => f.frame.kind === 'notification');
    expect(notifications.map((e) => e.frame.path)).toEqual([`${base}-0`]);

    const summary = proxy.summary();
    expect(summary.connections).toBe(6);
    expect(summary.ops['create']).toMatchObject({ requests: 6, replies: 6, errors: {} });
    expect(summary.ops['getData']).toMatchObject({ requests: 7, replies: 7 });
    expect(summary.ops['delete']).toMatchObject({ requests: 6, replies: 6 });
    expect(summary.notifications).toBe(1);
    expect(summary.undecodable).toBe(0);
    for (const op of Object.values(summary.ops)) {
      if (op.latencyMs === null) continue;
      expect(op.latencyMs.p50).toBeLessThanOrEqual(op.latencyMs.p99);
      expect(op.latencyMs.p99).toBeLessThanOrEqual(op.latencyMs.max);
    }
    const replayed = await replay(capture);
    expect(replayed).toHaveLength(capture.length);
    expect(replayed.filter((r) => !r.ok)).toEqual([]);
  });
});

describe('trace proxy byte transparency against a recording upstream (fault injection)', () => {
  let recorder: net.Server;
  let received: Buffer[] = [];
  const reply = Buffer.from('00000010deadbeef', 'hex'); // a frame header promising more than it sends
  beforeAll(async () => {
    recorder = net.createServer((s) => {
      s.on('data', (c: Buffer) => {
        received.push(c);
        s.write(reply);
      });
      s.on('error', () => {});
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => recorder.close(() => resolve()));
  });

  it('delivers garbage in any chunking byte for byte, and reports what it could not frame', async () => {
    received = [];
    const address = recorder.address() as net.AddressInfo;
    traced = await traceTo({ host: '127.0.0.1', port: address.port });
    const raw = await RawSocket.connect(traced.proxy.port);
    // A valid ConnectRequest, then bytes no server would accept, in uneven pieces.
    const sent = concatBytes([connectRequestFrame(), Uint8Array.from({ length: 300 }, (_, i) => (i * 37 + 11) & 0xff)]);
    for (let at = 0; at < sent.length; ) {
      const n = 1 + ((at * 7) % 53);
      await raw.write(sent.subarray(at, at + n));
      at += n;
    }
    await eventually(() => Buffer.concat(received).length === sent.length, 'the upstream to receive everything');
    expect(Buffer.concat(received).toString('hex')).toBe(hex(sent));
    await eventually(() => raw.received.length === reply.length * received.length, 'the replies to arrive');
    raw.destroy();
    await eventually(() => closeOf(traced!.events, 1) !== undefined, 'the close event');
    expect(capturedHex(traced.capture, 1, 'c2s')).toBe(hex(sent));
    expect(capturedHex(traced.capture, 1, 's2c')).toBe(hex(raw.received));
    expect(traced.proxy.summary().undecodable).toBeGreaterThan(0);
  });
});
