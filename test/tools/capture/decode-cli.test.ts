/**
 * `zkwire decode` on synthetic packet captures (no Java, no tcpdump): the JSON fields packet captures add, gap and
 * unmatched lines, --pretty's gap line, truncated and unreadable input, the JSON-lines path untouched.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonLines, zkwire } from '../cli-io.js';
import { goldenConnection, loadFixture } from './helpers.js';
import { capture, Link, pcapFile, TcpConversation } from './pcap-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'zkwire-decode-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const errors = loadFixture('errors.jsonl');

function write(name: string, bytes: Uint8Array): string {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

describe('zkwire decode on a pcap', () => {
  it('JSON lines with client, server, µs time, err by name, the request’s op and path on replies, latency', async () => {
    const v6 = goldenConnection(errors, { client: { ip: 'fd00::7', port: 50000 }, server: { ip: 'fd00::1', port: 2181 } });
    const r = await zkwire('decode', write('v6.pcap', pcapFile(Link.sll2, capture(v6.packets, Link.sll2))));
    expect(r).toMatchObject({ code: 0, err: '' });
    const lines = jsonLines(r.out) as Record<string, unknown>[];
    expect(lines).toHaveLength(errors.length);
    const nonode = lines.find((l) => l['err'] === 'NONODE')!;
    expect(nonode).toMatchObject({ conn: '[fd00::7]:50000>[fd00::1]:2181', client: '[fd00::7]:50000', server: '[fd00::1]:2181', kind: 'reply', op: 'getData', errCode: -101 });
    expect(typeof nonode['path']).toBe('string');
    expect(nonode['time']).toMatch(/^2023-11-14T22:13:20\.\d{6}Z$/);
    expect(nonode['latencyMs']).toBe(0.1);
    expect(lines.map((l) => l['seq'])).toStrictEqual(lines.map((_, i) => i));
  });

  it('a lost request: a gap line, then its reply marked unmatched; --pretty says GAP; exit 0', async () => {
    const { packets, perFrame } = goldenConnection(errors, { mss: 1000 });
    const file = write('lost.pcap', pcapFile(Link.ethernet, capture(packets.filter((p) => p !== perFrame[6]![0]), Link.ethernet)));
    const r = await zkwire('decode', file);
    expect(r.code).toBe(0);
    const lines = jsonLines(r.out) as Record<string, unknown>[];
    expect(lines.filter((l) => l['kind'] === 'gap')).toStrictEqual([
      expect.objectContaining({ dir: 'c2s', missingBytes: perFrame[6]![0]!.payload.length, reason: 'segment missing (acknowledged, not captured)' }),
    ]);
    expect(lines.filter((l) => l['unmatched'] === true)).toStrictEqual([expect.objectContaining({ kind: 'reply', xid: 3, err: 'NONODE', decoded: { header: { xid: 3, zxid: expect.any(String), err: -101 } } })]);
    expect(lines.filter((l) => l['unmatched'] === true)[0]).not.toHaveProperty('op');
    const pretty = await zkwire('decode', '--pretty', file);
    expect(pretty.out).toMatch(/ c2s → GAP \d+ B \(segment missing \(acknowledged, not captured\)\)\n/);
    expect(pretty.out).toMatch(/ s2c ← xid=3 +\? NONODE zxid=0x[0-9a-f]+ \(request not in the capture\)\n/);
  });

  it('a truncated file: a note on stderr, the whole packets decoded, exit 0', async () => {
    const { packets } = goldenConnection(errors.slice(0, 4), { close: false });
    const bytes = pcapFile(Link.ethernet, capture(packets, Link.ethernet));
    const r = await zkwire('decode', write('cut.pcap', bytes.subarray(0, bytes.length - 5)));
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/^zkwire decode: .*cut\.pcap: capture truncated at byte offset \d+: the last packet record is incomplete/);
    expect(jsonLines(r.out)).toHaveLength(3);
  });

  it('usage errors and unreadable inputs', async () => {
    expect((await zkwire('decode', '--port', 'x', 'f')).code).toBe(2);
    expect((await zkwire('decode', '--port', '70000', 'f')).err).toMatch(/--port needs a port number/);
    expect(await zkwire('decode', join(dir, 'none.pcap'))).toStrictEqual({ code: 1, out: '', err: `zkwire decode: ${join(dir, 'none.pcap')}: no such file\n` });
    expect(await zkwire('decode', dir)).toStrictEqual({ code: 1, out: '', err: `zkwire decode: ${dir} is a directory\n` });
  });

  it.each(['decode', 'analyze'])('zkwire %s: no capture, or no ZooKeeper in it, is exit 1 with the reason (never an empty success)', async (cmd) => {
    const web = new TcpConversation({ ip: '10.1.2.3', port: 50000 }, { ip: '10.9.8.7', port: 8080 });
    const http = [...web.handshake(), ...web.send('c2s', new TextEncoder().encode('GET / HTTP/1.1\r\n\r\n')), ...web.send('s2c', new TextEncoder().encode('HTTP/1.1 200 OK\r\n\r\n'))];
    const cases: [string, Uint8Array, string][] = [
      ['empty.pcap', new Uint8Array(0), 'the capture is empty (0 bytes): nothing was captured, or it is not the capture file'],
      ['ten.pcap', pcapFile(Link.ethernet, []).subarray(0, 10), 'not a whole pcap file: 10 byte(s), shorter than the 24-byte file header'],
      ['notes.txt', new TextEncoder().encode('just some notes\n'), 'not a capture: neither pcap, pcapng nor JSON lines (it begins with "just some notes\\x0a")'],
      ['web.pcap', pcapFile(Link.ethernet, capture(http, Link.ethernet)), 'none of its 1 TCP connection(s) looks like ZooKeeper (ports 8080); --port P decodes a port anyway'],
    ];
    for (const [name, bytes, message] of cases) {
      const file = write(name, bytes);
      const r = await zkwire(cmd, file);
      const last = name === 'web.pcap' ? `\nzkwire ${cmd}: ${file}: no ZooKeeper frame in the capture\n` : '\n';
      expect(r, name).toStrictEqual({ code: 1, out: '', err: `zkwire ${cmd}: ${file}: ${message}${last}` });
    }
  });

  it('--pretty prints a path with control characters escaped (a capture cannot act on the terminal)', async () => {
    const frames = errors.slice(0, 4).map((f) => ({ ...f, bytes: f.bytes.slice() }));
    const create = frames[2]!.bytes;
    const at = Buffer.from(create).indexOf('/g-err');
    expect(at).toBeGreaterThan(0);
    create[at + 1] = 0x1b;
    const { packets } = goldenConnection(frames, { server: { ip: '10.9.8.7', port: 2181 } });
    const r = await zkwire('decode', '--pretty', write('escape.pcap', pcapFile(Link.ethernet, capture(packets, Link.ethernet))));
    expect(r.code, r.err).toBe(0);
    expect(r.out).not.toContain('\u001b');
    expect(r.out.split('\n').filter((l) => l.includes('/\\x1b-err'))).toHaveLength(2); // the create and its reply
  });

  it('without --port: the ports found named in one line, 2181 beside them (alone it goes without saying)', async () => {
    const usual = goldenConnection(errors).packets;
    const random = goldenConnection(errors, { client: { ip: '10.1.2.3', port: 40002 }, server: { ip: '10.9.8.7', port: 41234 } }).packets;
    const both = write('both.pcap', pcapFile(Link.ethernet, capture([...usual, ...random], Link.ethernet)));
    const r = await zkwire('decode', both);
    expect(r.code).toBe(0);
    expect(jsonLines(r.out)).toHaveLength(2 * errors.length);
    expect(r.err).toBe(`zkwire decode: ${both}: ZooKeeper found on ports 2181, 41234 (by the shape of its frames; --port P to choose)\n`);
    const only = await zkwire('analyze', write('usual.pcap', pcapFile(Link.ethernet, capture(usual, Link.ethernet))));
    expect(only).toMatchObject({ code: 0, err: '' });
  });

  it('a file name with control characters is printed escaped', async () => {
    const file = write('evil\u001b[2Jname.pcap', new Uint8Array(0));
    const r = await zkwire('decode', file);
    expect(r.err).toBe(`zkwire decode: ${dir}/evil\\x1b[2Jname.pcap: the capture is empty (0 bytes): nothing was captured, or it is not the capture file\n`);
    expect((await zkwire('analyze', `${file}.missing`)).err).toBe(`zkwire analyze: ${dir}/evil\\x1b[2Jname.pcap.missing: no such file\n`);
  });

  it('JSON-lines captures keep their seq and conn, no addresses; err by name as for packet captures', async () => {
    const text = errors.map((g) => JSON.stringify({ seq: g.seq, conn: g.conn, dir: g.dir, hex: Buffer.from(g.bytes).toString('hex') })).join('\n');
    const r = await zkwire('decode', write('errors.jsonl', new TextEncoder().encode(text)));
    expect(r.code).toBe(0);
    const nonode = (jsonLines(r.out) as Record<string, unknown>[]).find((l) => l['err'] === 'NONODE')!;
    expect(nonode['errCode']).toBe(-101);
    expect(nonode).not.toHaveProperty('client');
    expect(nonode).toMatchObject({ conn: 1, kind: 'reply', op: 'getData' });
  });
});
