/**
 * Reading captures: pcap (both byte orders, µs and ns), pcapng (both byte orders, several interfaces with their own
 * link type and timestamp resolution, simple and unknown blocks), every link layer, IPv4 with options and IPv6 with
 * an extension header, truncated and corrupt files, and JSON lines — each checked against the golden frames it
 * carries. Pure: no Java, no tcpdump.
 */

import { describe, expect, it } from 'vitest';
import { CaptureFormatError, detectCaptureFormat } from '../../../src/tools/capture/index.js';
import { collect, frameEvents, goldenConnection, goldenSummary, loadFixture, summary } from './helpers.js';
import { capture, concat, Link, pcapFile, pcapngSection, type PcapngItem } from './pcap-writer.js';

const errors = loadFixture('errors.jsonl');
const watch = loadFixture('getdata_watch.jsonl');

describe('pcap', () => {
  const { packets } = goldenConnection(errors);

  it.each([
    ['little-endian µs', { little: true, nanos: false }],
    ['big-endian µs', { little: false, nanos: false }],
    ['little-endian ns', { little: true, nanos: true }],
    ['big-endian ns', { little: false, nanos: true }],
  ])('%s: every frame of the golden conversation, with its capture time', async (_name, opts) => {
    const file = pcapFile(Link.ethernet, capture(packets, Link.ethernet), opts);
    const { events, notes } = await collect(file);
    expect(notes).toStrictEqual([]);
    expect(frameEvents(events).map(summary)).toStrictEqual(goldenSummary(errors));
    expect(events[0]).toMatchObject({ type: 'open', midStream: false, conn: { id: '10.1.2.3:40001>10.9.8.7:2181', client: '10.1.2.3:40001', server: '10.9.8.7:2181' } });
    expect(events.at(-1)).toMatchObject({ type: 'close', reason: 'fin' });
    // The first frame rides on the 4th packet (after the handshake): its capture time to the microsecond.
    expect(frameEvents(events)[0]!.timeUs).toBe(packets[3]!.timeUs);
    expect(frameEvents(events)[0]!.size).toBe(errors[0]!.bytes.length);
  });

  it.each([
    ['Ethernet', Link.ethernet, {}],
    ['Ethernet with an 802.1Q tag', Link.ethernet, { vlan: true }],
    ['Linux cooked v1', Link.sll, {}],
    ['Linux cooked v2', Link.sll2, {}],
    ['raw IP (101)', Link.raw, {}],
    ['raw IP (DLT 12)', Link.rawDlt12, {}],
    ['raw IP (DLT 14)', Link.rawDlt14, {}],
    ['BSD null/loopback', Link.null, {}],
    ['IPv4 with options', Link.ethernet, { ipv4Options: true }],
  ])('link layer %s', async (_name, linkType, opts) => {
    const { events } = await collect(pcapFile(linkType, capture(packets, linkType, opts)));
    expect(frameEvents(events).map(summary)).toStrictEqual(goldenSummary(errors));
  });

  it.each([
    ['Ethernet', Link.ethernet],
    ['Linux cooked v2', Link.sll2],
    ['BSD null', Link.null],
  ])('IPv6 (with a hop-by-hop header) over %s: addresses in brackets', async (_name, linkType) => {
    const v6 = goldenConnection(errors, { client: { ip: 'fd00::1:2', port: 40002 }, server: { ip: '::1', port: 2181 } });
    const { events } = await collect(pcapFile(linkType, capture(v6.packets, linkType, { ipv6HopByHop: true })));
    expect(frameEvents(events).map(summary)).toStrictEqual(goldenSummary(errors));
    expect(events[0]!.conn).toStrictEqual({ id: '[fd00::1:2]:40002>[::1]:2181', client: '[fd00::1:2]:40002', server: '[::1]:2181' });
  });

  it('reads the same events whatever the chunk size (records straddling chunks)', async () => {
    const file = pcapFile(Link.ethernet, capture(packets, Link.ethernet));
    const whole = await collect(file, {}, file.length);
    for (const size of [1, 7, 100]) {
      const { events } = await collect(file, {}, size);
      expect(frameEvents(events).map(summary)).toStrictEqual(frameEvents(whole.events).map(summary));
    }
  });

  it('ignores connections to other ports; --port picks the server end', async () => {
    const file = pcapFile(Link.ethernet, capture(packets, Link.ethernet));
    expect((await collect(file, { ports: [2182] })).events).toStrictEqual([]);
    const other = goldenConnection(errors, { server: { ip: '10.9.8.7', port: 2888 } });
    const mixed = pcapFile(Link.ethernet, capture([...packets, ...other.packets], Link.ethernet));
    const both = await collect(mixed, { ports: [2181, 2888] });
    expect(new Set(frameEvents(both.events).map((e) => e.conn.server))).toStrictEqual(new Set(['10.9.8.7:2181', '10.9.8.7:2888']));
    expect(frameEvents(both.events)).toHaveLength(2 * errors.length);
  });

  it('a file cut inside a packet record: a note, every whole packet decoded, connections closed at the end', async () => {
    const { packets: half } = goldenConnection(errors.slice(0, 6), { close: false });
    const file = pcapFile(Link.ethernet, capture(half, Link.ethernet));
    const { events, notes } = await collect(file.subarray(0, file.length - 10));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^capture truncated at byte offset \d+: the last packet record is incomplete/);
    expect(frameEvents(events).map(summary)).toStrictEqual(goldenSummary(errors.slice(0, 5)));
    expect(events.at(-1)).toMatchObject({ type: 'close', reason: 'capture-end' });
  });

  it('a corrupt record is a CaptureFormatError with its offset', async () => {
    const file = pcapFile(Link.ethernet, capture(packets.slice(0, 4), Link.ethernet));
    const bad = file.slice();
    const second = 24 + 16 + capture(packets.slice(0, 1), Link.ethernet)[0]!.data.length;
    new DataView(bad.buffer).setUint32(second + 8, 0x7fffffff, true);
    const err = await collect(bad).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CaptureFormatError);
    expect((err as CaptureFormatError).offset).toBe(second);
    expect((err as CaptureFormatError).code).toBe('CORRUPT_CAPTURE');
    expect((err as Error).message).toMatch(new RegExp(`captured length 2147483647 is impossible \\(at byte offset ${second}\\)`));
  });
});

describe('pcapng', () => {
  // Two connections of getdata_watch on two interfaces: Ethernet in µs, Linux cooked v2 in ns.
  const conn1 = goldenConnection(watch.filter((f) => f.conn === 1));
  const conn2 = goldenConnection(
    watch.filter((f) => f.conn === 2),
    { client: { ip: '10.1.2.4', port: 40003 } },
  );
  const items: PcapngItem[] = [
    ...capture(conn1.packets, Link.ethernet).map((packet): PcapngItem => ({ type: 'packet', iface: 0, packet })),
    { type: 'unknown', blockType: 5, body: new Uint8Array(20) }, // interface statistics
    { type: 'unknown', blockType: 0x0bad, body: new Uint8Array([1, 2, 3]) },
    ...capture(conn2.packets, Link.sll2).map((packet): PcapngItem => ({ type: 'packet', iface: 1, packet })),
  ];
  const interfaces = [{ linkType: Link.ethernet }, { linkType: Link.sll2, tsresol: 9 }];

  it.each([
    ['little-endian', true],
    ['big-endian', false],
  ])('%s, two interfaces with their own link type and resolution, unknown blocks skipped', async (_name, little) => {
    const file = pcapngSection(interfaces, items, { little });
    expect(detectCaptureFormat(file)).toBe('pcapng');
    const { events, notes } = await collect(file);
    expect(notes).toStrictEqual([]);
    const byConn = (id: string): ReturnType<typeof summary>[] => frameEvents(events).filter((e) => e.conn.id === id).map(summary);
    expect(byConn('10.1.2.3:40001>10.9.8.7:2181')).toStrictEqual(goldenSummary(watch.filter((f) => f.conn === 1)));
    expect(byConn('10.1.2.4:40003>10.9.8.7:2181')).toStrictEqual(goldenSummary(watch.filter((f) => f.conn === 2)));
    const second = frameEvents(events).find((e) => e.conn.client === '10.1.2.4:40003')!;
    expect(second.timeUs).toBe(conn2.packets[3]!.timeUs);
  });

  it('two sections in one file (a new section resets the interfaces), and simple packet blocks', async () => {
    const first = pcapngSection([{ linkType: Link.raw }], capture(conn1.packets, Link.raw).map((packet): PcapngItem => ({ type: 'simple', packet })));
    const second = pcapngSection([{ linkType: Link.null }], capture(conn2.packets, Link.null).map((packet): PcapngItem => ({ type: 'packet', iface: 0, packet })), { little: false });
    const { events } = await collect(concat([first, second]));
    expect(frameEvents(events)).toHaveLength(watch.length);
  });

  it('a file cut inside a block: a note, the whole blocks decoded', async () => {
    const file = pcapngSection(interfaces, items);
    const { events, notes } = await collect(file.subarray(0, file.length - 30));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/the last block is incomplete/);
    expect(frameEvents(events).length).toBeGreaterThan(watch.length - 3);
  });

  it('a block whose two lengths differ is a CaptureFormatError', async () => {
    const file = pcapngSection(interfaces, items).slice();
    const shbLength = new DataView(file.buffer).getUint32(4, true);
    file[shbLength + 4] = 0xff; // the IDB's leading length
    await expect(collect(file)).rejects.toThrow(/corrupt pcapng block.*at byte offset/);
  });
});

describe('JSON lines through the same entry point', () => {
  it('yields the golden frames with their conn, time and an open/close per connection', async () => {
    const text = watch.map((g) => JSON.stringify({ seq: g.seq, conn: g.conn, dir: g.dir, hex: Buffer.from(g.bytes).toString('hex'), ts: '2026-11-21T04:55:14.723+00:00' })).join('\n');
    const bytes = new TextEncoder().encode(`${text}\nnot json\n`);
    expect(detectCaptureFormat(bytes)).toBe('jsonl');
    const { events, notes } = await collect(bytes, {}, 50);
    expect(frameEvents(events).map(summary)).toStrictEqual(goldenSummary(watch));
    expect(events.filter((e) => e.type === 'open').map((e) => e.conn)).toStrictEqual([
      { id: '1', client: 'conn 1', server: 'unknown', lineConn: 1 },
      { id: '2', client: 'conn 2', server: 'unknown', lineConn: 2 },
    ]);
    expect(events.filter((e) => e.type === 'close')).toHaveLength(2);
    expect(frameEvents(events)[0]!.timeUs).toBe(Date.parse('2026-11-21T04:55:14.723Z') * 1000);
    // A line that is no frame is an event of its own (decode prints it as an error), not a note.
    expect(notes).toStrictEqual([]);
    expect(events.filter((e) => e.type === 'bad-line')).toStrictEqual([
      expect.objectContaining({ lineNo: watch.length + 1, seq: watch.length, conn: null, dir: null, error: expect.stringMatching(/^not a JSON line/) as unknown }),
    ]);
  });
});

describe('four-letter words', () => {
  it('a 4lw connection is text, not frames', async () => {
    const flw = loadFixture('four_letter_words.jsonl').filter((f) => f.conn === 1);
    const { packets } = goldenConnection(flw);
    const { events } = await collect(pcapFile(Link.ethernet, capture(packets, Link.ethernet)));
    expect(frameEvents(events).map((e) => e.frame.kind)).toStrictEqual(['4lw-command', '4lw-response']);
    expect(frameEvents(events).map((e) => e.frame.error)).toStrictEqual([undefined, undefined]);
  });
});
