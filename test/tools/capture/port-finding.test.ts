/**
 * Packet captures read without ports: ZooKeeper connections are found on any port by the shape of their first frames
 * (a ConnectRequest, or mid-session a request answered by a reply with its xid), other TCP traffic is left out and
 * named in a note. And inputs that are no capture at all: each a CaptureFormatError with a reason, never an empty
 * result. Pure: synthetic captures, no server.
 */

import { describe, expect, it } from 'vitest';
import { CaptureFormatError, detectCaptureFormat } from '../../../src/tools/capture/index.js';
import { collect, frameEvents, goldenConnection, goldenSummary, loadFixture, summary } from './helpers.js';
import { capture, Link, pcapFile, TcpConversation } from './pcap-writer.js';

const errors = loadFixture('errors.jsonl');
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/** An HTTP exchange: text both ways, nothing ZooKeeper about it. */
function http(port: number, clientPort = 50000) {
  const tcp = new TcpConversation({ ip: '10.1.2.3', port: clientPort }, { ip: '10.9.8.7', port });
  return [...tcp.handshake(), ...tcp.send('c2s', enc('GET /commands/mntr HTTP/1.1\r\nHost: x\r\n\r\n')), ...tcp.send('s2c', enc('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}')), tcp.fin('c2s'), tcp.fin('s2c')];
}

async function failure(bytes: Uint8Array): Promise<CaptureFormatError> {
  const err = await collect(bytes).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CaptureFormatError);
  return err as CaptureFormatError;
}

describe('finding ZooKeeper without --port', () => {
  it('a conversation on a random port, from its ConnectRequest: every frame, the server end right', async () => {
    const { packets } = goldenConnection(errors, { server: { ip: '10.9.8.7', port: 41234 } });
    const { events, notes } = await collect(pcapFile(Link.ethernet, capture(packets, Link.ethernet)));
    expect(notes).toStrictEqual([]);
    expect(frameEvents(events).map(summary)).toStrictEqual(goldenSummary(errors));
    expect(events[0]).toMatchObject({ type: 'open', midStream: false, conn: { server: '10.9.8.7:41234', client: '10.1.2.3:40001' } });
  });

  it('a capture that began mid-session (no SYN, no handshake): a request and the reply with its xid decide', async () => {
    const mid = errors.slice(2);
    const { packets } = goldenConnection(mid, { server: { ip: '10.9.8.7', port: 41234 }, handshake: false });
    const { events } = await collect(pcapFile(Link.ethernet, capture(packets, Link.ethernet)));
    expect(frameEvents(events).map((e) => [e.dir, e.frame.xid])).toStrictEqual(mid.map((f) => [f.dir, f.xid]));
    expect(events.every((e) => e.type === 'bad-line' || e.conn.server === '10.9.8.7:41234')).toBe(true);
  });

  it('beside other traffic: only the ZooKeeper connection, held-back packets delivered in capture order', async () => {
    const zk = goldenConnection(errors, { server: { ip: '10.9.8.7', port: 41234 } }).packets;
    const web = http(8080);
    // Interleaved: the HTTP exchange starts first and its packets fall between ZooKeeper's.
    const mixed = web.flatMap((p, i) => [p, ...zk.slice(i * 4, i * 4 + 4)]).concat(zk.slice(web.length * 4));
    const { events, notes } = await collect(pcapFile(Link.ethernet, capture(mixed, Link.ethernet)));
    expect(notes).toStrictEqual([]);
    expect(new Set(events.map((e) => (e.type === 'bad-line' ? '' : e.conn.server)))).toStrictEqual(new Set(['10.9.8.7:41234']));
    expect(frameEvents(events).map(summary)).toStrictEqual(goldenSummary(errors));
  });

  it('no ZooKeeper at all: no event, a note naming the ports it saw', async () => {
    const { events, notes } = await collect(pcapFile(Link.ethernet, capture([...http(8080), ...http(443, 50001)], Link.ethernet)));
    expect(events).toStrictEqual([]);
    expect(notes).toStrictEqual(['none of its 2 TCP connection(s) looks like ZooKeeper (ports 443, 8080); --port P decodes a port anyway']);
  });

  it('--port still forces: the HTTP port is decoded as ZooKeeper, its bytes reported skipped, no frame', async () => {
    const { events } = await collect(pcapFile(Link.ethernet, capture(http(8080), Link.ethernet)), { ports: [8080] });
    expect(frameEvents(events)).toStrictEqual([]);
    expect(events.filter((e) => e.type === 'gap').map((e) => (e as { reason: string }).reason)).toContainEqual(expect.stringMatching(/skipped: bad length prefix 1195725856/));
  });
});

describe('inputs that are no capture', () => {
  it('an empty input', async () => {
    expect((await failure(new Uint8Array(0))).message).toBe('the capture is empty (0 bytes): nothing was captured, or it is not the capture file');
  });

  it('a pcap cut inside its file header (10 bytes)', async () => {
    const file = pcapFile(Link.ethernet, []).subarray(0, 10);
    expect(detectCaptureFormat(file)).toBe('pcap');
    expect((await failure(file)).message).toBe('not a whole pcap file: 10 byte(s), shorter than the 24-byte file header');
  });

  it('a pcapng cut inside its section header', async () => {
    expect((await failure(new Uint8Array([0x0a, 0x0d, 0x0d, 0x0a, 0x1c, 0, 0, 0, 0x4d, 0x3c]))).message).toBe('not a whole pcapng file: 10 byte(s), the section header is incomplete');
  });

  it('10 bytes of something else, and 3 bytes', async () => {
    expect((await failure(new Uint8Array([0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6]))).message).toBe('not a capture: neither pcap, pcapng nor JSON lines (it begins with bytes de ad be ef 01 02 03 04 05 06)');
    expect((await failure(new Uint8Array([0x41, 0x42, 0x43]))).message).toBe('not a capture: neither pcap, pcapng nor JSON lines (only 3 byte(s))');
  });

  it('a text file: quoted, its control characters escaped (a terminal escape cannot act)', async () => {
    const err = await failure(enc('\n\nhello \u001b[2J world, this is a log file\n'));
    expect(err.message).toBe('not a capture: neither pcap, pcapng nor JSON lines (it begins with "\\x0a\\x0ahello \\x1b[2J world, this…")');
    expect(detectCaptureFormat(enc('  \n{"dir":"c2s"}'))).toBe('jsonl');
  });
});
