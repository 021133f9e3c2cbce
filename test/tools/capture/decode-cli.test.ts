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
import { capture, Link, pcapFile } from './pcap-writer.js';

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
