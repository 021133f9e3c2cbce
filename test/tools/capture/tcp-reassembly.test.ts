/**
 * TCP as captures really show it: segments out of order, retransmitted, overlapping, missing (a gap, then
 * resynchronisation at the next plausible frame), cut by snaplen; captures that begin mid-session; address pairs
 * reused after FIN or RST. Each case is built with the test writer from golden frames and checked frame by frame.
 */

import { describe, expect, it } from 'vitest';
import type { GapEvent } from '../../../src/tools/capture/index.js';
import { collect, frameEvents, goldenConnection, goldenSummary, loadFixture, summary } from './helpers.js';
import { capture, Link, pcapFile, TcpConversation, type TcpPacket } from './pcap-writer.js';
import { TcpDirection } from '../../../src/tools/capture/tcp-reassembly.js';

const errors = loadFixture('errors.jsonl');
const multi = loadFixture('multi.jsonl');
const file = (packets: TcpPacket[], opts: { snaplen?: number } = {}): Uint8Array => pcapFile(Link.ethernet, capture(packets, Link.ethernet, opts));
const gaps = (events: { type: string }[]): GapEvent[] => events.filter((e): e is GapEvent => e.type === 'gap');

describe('reassembly', () => {
  it('out-of-order, retransmitted and overlapping segments give exactly the golden frames, once each', async () => {
    const { packets } = goldenConnection(multi, { mss: 7 });
    // Swap neighbours of the same direction (a reply cannot be captured before the request it answers), repeat every
    // fifth segment, and add overlapping re-sends that straddle old and new bytes.
    const shuffled: TcpPacket[] = packets.slice(0, 3);
    const data = packets.slice(3);
    for (let i = 0; i < data.length; i += 2) {
      const a = data[i]!;
      const b = data[i + 1];
      if (b !== undefined && b.src.port === a.src.port) shuffled.push(b, a);
      else shuffled.push(...(b === undefined ? [a] : [a, b]));
    }
    expect(shuffled.filter((p, i) => p.seq !== packets[i]!.seq).length).toBeGreaterThan(50);
    const out: TcpPacket[] = [];
    shuffled.forEach((p, i) => {
      out.push(p);
      if (i % 5 === 0) out.push({ ...p });
      if (i % 7 === 0 && p.payload.length === 7) {
        const both = new Uint8Array(12);
        both.set(p.payload.subarray(2));
        out.push({ ...p, seq: (p.seq + 2) >>> 0, payload: both.subarray(0, 5) });
      }
    });
    const { events } = await collect(file(out));
    expect(gaps(events)).toStrictEqual([]);
    expect(frameEvents(events).map(summary)).toStrictEqual(goldenSummary(multi));
  });

  it('sequence numbers wrapping around 2^32 (the writer starts the server side just below it)', async () => {
    const { packets } = goldenConnection(multi, { mss: 100 });
    const s2c = packets.filter((p) => p.src.port === 2181 && p.payload.length > 0);
    expect(s2c.some((p) => p.seq > 0xfffff000) && s2c.some((p) => p.seq < 0x1000)).toBe(true);
    expect(frameEvents((await collect(file(packets))).events).map(summary)).toStrictEqual(goldenSummary(multi));
  });

  it('a missing request segment: one gap, the next frame found again, the lost request’s reply unmatched', async () => {
    const { packets, perFrame } = goldenConnection(errors, { mss: 20 });
    // errors: [connect req, connect resp, create xid1 req, reply, create xid2 req, reply, getData xid3 req, reply, …]
    const lost = perFrame[4]![1]!; // the second segment of request xid 2
    const { events } = await collect(file(packets.filter((p) => p !== lost)));
    // The hole itself, the head of the frame it cut (dropped), and the frame's tail after it (skipped).
    const frameSize = errors[4]!.bytes.length;
    expect(gaps(events).map((g) => [g.dir, g.missingBytes, g.reason])).toStrictEqual([
      ['c2s', 20, 'segment missing (acknowledged, not captured)'],
      ['c2s', 20, '20 byte(s) skipped: a frame cut by the gap'],
      ['c2s', frameSize - 40, `${frameSize - 40} byte(s) skipped: resynchronising after the gap`],
    ]);
    const frames = frameEvents(events);
    // Request xid 2 is lost; its reply comes out unmatched, with its header; everything else as in the golden file.
    const expected = goldenSummary(errors).filter((_, i) => i !== 4);
    expect(frames).toHaveLength(expected.length);
    const unmatched = frames[4]!;
    expect(unmatched.frame).toMatchObject({ kind: 'reply', xid: 2, unmatched: true, err: errors[5]!.err });
    expect(unmatched.frame.op).toBeUndefined();
    expect(frames.filter((_, i) => i !== 4).map(summary)).toStrictEqual(expected.filter((_, i) => i !== 4));
  });

  it('a whole request lost: its reply, which acknowledges it, comes out unmatched after the gap, not as an error', async () => {
    const { packets, perFrame } = goldenConnection(errors, { mss: 1000 });
    const lost = perFrame[6]![0]!; // getData xid 3, one segment
    const { events } = await collect(file(packets.filter((p) => p !== lost)));
    const frames = frameEvents(events);
    expect(gaps(events)).toStrictEqual([expect.objectContaining({ dir: 'c2s', missingBytes: lost.payload.length, reason: 'segment missing (acknowledged, not captured)' })]);
    expect(frames.map((f) => f.frame.error)).toStrictEqual(frames.map(() => undefined));
    expect(frames[6]!.frame).toMatchObject({ kind: 'reply', xid: 3, unmatched: true, err: errors[7]!.err });
    expect(events.findIndex((e) => e.type === 'gap')).toBeLessThan(events.indexOf(frames[6]!));
    expect(frames.filter((_, i) => i !== 6).map(summary)).toStrictEqual(goldenSummary(errors).filter((_, i) => i !== 6 && i !== 7));
  });

  it.each([
    ['acknowledged by the client: declared with that acknowledgement', true, 'segment missing (acknowledged, not captured)'],
    ['never acknowledged in the capture: declared when the connection ends', false, 'segment missing (never captured)'],
  ])('a missing reply, %s', async (_name, acks, reason) => {
    const { tcp, packets, perFrame } = goldenConnection(errors.slice(0, 8), { mss: 1000, close: false });
    const lost = perFrame[5]![0]!; // the whole reply to xid 2
    const nextRequest = perFrame[6]![0]!; // acknowledges the lost reply
    const ping = tcp.send('c2s', new Uint8Array([0, 0, 0, 8, 0xff, 0xff, 0xff, 0xfe, 0, 0, 0, 11]))[0]!;
    const kept = [...packets, ping].filter((p) => p !== lost).map((p) => (acks ? p : { ...p, flags: p.flags & ~16 }));
    const { events } = await collect(file(kept));
    expect(gaps(events)).toHaveLength(1);
    expect(gaps(events)[0]).toMatchObject({ dir: 's2c', missingBytes: lost.payload.length, reason, timeUs: acks ? nextRequest.timeUs : ping.timeUs });
    // The reply that waited behind the hole comes out when the hole is given up: before the ping, or after it.
    const frames = frameEvents(events).map(summary);
    const pingAt = acks ? 7 : 6;
    expect(frames[pingAt]).toMatchObject({ dir: 'c2s', kind: 'request', xid: -2, op: 'ping' });
    expect(frames.filter((_, i) => i !== pingAt)).toStrictEqual(goldenSummary(errors.slice(0, 8)).filter((_, i) => i !== 5));
  });

  it('a packet cut by snaplen: a gap saying so, then the following frames', async () => {
    const { packets, perFrame } = goldenConnection(errors, { mss: 1000 });
    const big = perFrame[2]![0]!; // the create request, 40-odd bytes of payload
    const snaplen = 14 + 20 + 32 + 10; // Ethernet + IPv4 + TCP with options + 10 payload bytes
    const cut = capture(packets, Link.ethernet).map((c, i) => (packets[i] === big ? { timeUs: c.timeUs, data: c.data.subarray(0, snaplen), origLen: c.data.length } : c));
    const { events } = await collect(pcapFile(Link.ethernet, cut));
    expect(gaps(events)[0]).toMatchObject({ dir: 'c2s', missingBytes: big.payload.length - 10, reason: 'cut by snaplen' });
    expect(gaps(events)[1]).toMatchObject({ dir: 'c2s', missingBytes: 10, reason: expect.stringMatching(/a frame cut by the gap/) });
    const frames = frameEvents(events);
    expect(frames).toHaveLength(errors.length - 1);
    expect(frames[2]!.frame).toMatchObject({ kind: 'reply', xid: 1, unmatched: true });
    expect(frames.slice(3).map(summary)).toStrictEqual(goldenSummary(errors.slice(4)));
  });

  it('bounds the bytes waiting behind a hole', async () => {
    const tcp = new TcpConversation({ ip: '10.0.0.1', port: 5000 }, { ip: '10.0.0.2', port: 2181 });
    const packets = tcp.handshake();
    const ping = new Uint8Array([0, 0, 0, 8, 0xff, 0xff, 0xff, 0xfe, 0, 0, 0, 11]);
    const hole = tcp.send('c2s', ping)[0]!;
    // 100k pings (1.2 MB) after the missing one, with no acknowledgement seen: the hole must be given up.
    const many = new Uint8Array(12 * 100_000);
    for (let i = 0; i < 100_000; i++) many.set(ping, i * 12);
    for (const p of tcp.send('c2s', many, 12_000)) packets.push({ ...p, flags: p.flags & ~16 });
    const { events } = await collect(file(packets.filter((p) => p !== hole)));
    expect(gaps(events)[0]).toMatchObject({ missingBytes: 12, reason: expect.stringMatching(/^segment missing \(\d+ bytes arrived after it\)/) });
    expect(frameEvents(events)).toHaveLength(100_000);
  });
});

describe('captures that begin mid-session', () => {
  it('requests decode, replies match requests seen, earlier replies come out unmatched with their header', async () => {
    const { packets, perFrame } = goldenConnection(errors, { mss: 1000 });
    // Start the capture with the reply to xid 2 (index 5): its request and the handshake are before the capture.
    const from = packets.indexOf(perFrame[5]![0]!);
    const { events } = await collect(file(packets.slice(from)));
    expect(events[0]).toMatchObject({ type: 'open', midStream: true });
    const frames = frameEvents(events);
    expect(frames[0]!.frame).toMatchObject({ kind: 'reply', xid: 2, unmatched: true, err: errors[5]!.err, summary: expect.stringMatching(/^reply to a request not in the capture: /) });
    expect(frames.slice(1).map(summary)).toStrictEqual(goldenSummary(errors.slice(6)));
  });

  it('a capture that starts inside a frame skips to the next frame start', async () => {
    const { packets, perFrame } = goldenConnection(errors, { mss: 9 });
    const from = packets.indexOf(perFrame[6]![1]!); // the second segment of getData xid 3
    const { events } = await collect(file(packets.slice(from)));
    const frames = frameEvents(events);
    expect(gaps(events)[0]).toMatchObject({ dir: 'c2s', reason: expect.stringMatching(/skipped: the capture began inside a frame/) });
    expect(frames[0]!.frame).toMatchObject({ kind: 'reply', xid: 3, unmatched: true });
    expect(frames.slice(1).map(summary)).toStrictEqual(goldenSummary(errors.slice(8)));
  });

  it('a capture that missed only the SYN still sees the handshake', async () => {
    const { packets } = goldenConnection(errors);
    const { events } = await collect(file(packets.slice(3)));
    expect(events[0]).toMatchObject({ type: 'open', midStream: false });
    expect(frameEvents(events).map(summary)).toStrictEqual(goldenSummary(errors));
  });
});

describe('connection life', () => {
  it('an address pair reused after FIN and after RST gets #2 and #3; each connection closes once', async () => {
    const a = goldenConnection(errors.slice(0, 4));
    const b = goldenConnection(errors.slice(0, 4), { startUs: a.tcp.timeUs + 1000 });
    const c = goldenConnection(errors.slice(0, 4), { startUs: b.tcp.timeUs + 1000, close: false });
    const packets = [...a.packets, ...b.packets.slice(0, -2), b.tcp.rst('c2s'), ...c.packets];
    const { events } = await collect(file(packets));
    const base = '10.1.2.3:40001>10.9.8.7:2181';
    expect(events.flatMap((e) => (e.type === 'frame' || e.type === 'bad-line' ? [] : [`${e.type} ${e.conn.id} ${e.type === 'close' ? e.reason : ''}`.trim()]))).toStrictEqual([
      `open ${base}`,
      `close ${base} fin`,
      `open ${base}#2`,
      `close ${base}#2 rst`,
      `open ${base}#3`,
      `close ${base}#3 capture-end`,
    ]);
    expect(frameEvents(events)).toHaveLength(12);
  });
});

describe('one direction', () => {
  it('keeps its own copy of a segment that arrives early, even when the capture hands it a Node Buffer it reuses', () => {
    const got: number[] = [];
    const way = new TcpDirection({ data: (bytes) => got.push(...bytes), gap: () => expect.unreachable('no gap') });
    way.syn(99);
    // One read buffer, reused for each packet the way a reader recycling its chunk would.
    const read = Buffer.alloc(4);
    read.set([5, 6, 7, 8]);
    way.segment(104, read, 0, 1); // early: bytes 104..107 wait for 100..103
    read.fill(0xee); // the reader moves on
    read.set([1, 2, 3, 4]);
    way.segment(100, read, 0, 2);
    expect(got).toStrictEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});
