/** `zkwire decode`: the tool over every golden file, hand-made bad lines, and the built CLI's exit status. */

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeCapture } from '../../src/tools/decode/index.js';
import type { JsonValue } from '../../src/protocol/index.js';

interface DecodeResult {
  ok: boolean;
  line: string;
  json: { [key: string]: JsonValue };
}
import { GOLDEN_DIR, goldenFiles, isRoundTripFrame, loadGolden } from '../protocol/golden.js';

async function run(lines: string[], opts: { check?: boolean; pretty?: boolean } = {}): Promise<DecodeResult[]> {
  const out: DecodeResult[] = [];
  for await (const r of decodeCapture([lines.map((l) => `${l}\n`).join('')], opts)) {
    if (r.event.type !== 'frame' && r.event.type !== 'bad-line') continue;
    // The JSON object of the line; --pretty lines are read with the JSON of the same capture.
    out.push({ ok: r.ok, line: r.line, json: opts.pretty === true ? {} : (JSON.parse(r.line) as { [key: string]: JsonValue }) });
  }
  return out;
}

describe('decode over the golden captures', () => {
  it.each(goldenFiles())('%s', async (file) => {
    const text = readFileSync(join(GOLDEN_DIR, file), 'utf8');
    const golden = loadGolden(file);
    const results = await run(text.split('\n'), { check: true });
    expect(results).toHaveLength(golden.length);
    results.forEach((r, i) => {
      const g = golden[i]!;
      const expectedError =
        (file === 'raw_edge_cases.jsonl' && g.kind === 'incomplete-frame') || g.decode_error !== undefined;
      if (expectedError) {
        expect(r.ok, `seq ${g.seq}`).toBe(false);
        expect(Object.keys(r.json)).toStrictEqual(['seq', 'conn', 'dir', 'error']);
        expect(r.json).toMatchObject({ seq: g.seq, conn: g.conn, dir: g.dir });
        return;
      }
      expect(r.ok, `seq ${g.seq}: ${r.line}`).toBe(true);
      expect(r.json['check_error']).toBeUndefined();
      expect(r.json).toMatchObject({ seq: g.seq, conn: g.conn, dir: g.dir, kind: g.kind });
      if (g.xid !== undefined) expect(r.json['xid']).toBe(g.xid);
      if (g.op !== undefined) expect(r.json).toMatchObject({ op: g.op, opcode: g.opcode });
      if (isRoundTripFrame(g) || g.kind === '4lw-response') expect(r.json['decoded']).toStrictEqual(g.decoded);
      expect(JSON.parse(r.line)).toStrictEqual(r.json);
    });
  });

  it('reports exactly the two deliberately invalid frames as errors', async () => {
    const errors: string[] = [];
    for (const file of goldenFiles()) {
      const results = await run(readFileSync(join(GOLDEN_DIR, file), 'utf8').split('\n'), { check: true });
      for (const r of results) if (!r.ok) errors.push(`${file}:${String(r.json['seq'])}:${String(r.json['error'])}`);
    }
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^raw_edge_cases\.jsonl:108:not a valid ConnectRequest/);
    expect(errors[1]).toMatch(/^raw_edge_cases\.jsonl:111:truncated frame: the length prefix says 1048576/);
  });
});

const CONNECT = '0000002d000000000000000000000000000075300000000000000000000000100000000000000000000000000000000000';
const line = (o: Record<string, unknown>): string => JSON.stringify(o);

describe('decode on hand-made lines', () => {
  it('reports bad hex, truncation and a lying length, and goes on', async () => {
    const results = await run([
      line({ seq: 0, dir: 'c2s', hex: CONNECT }),
      line({ seq: 1, dir: 'c2s', hex: '0000000zz' }),
      line({ seq: 2, dir: 'c2s', hex: '000000080000000100' }),
      line({ seq: 3, dir: 'c2s', hex: '00000004000000010000000b' }),
      line({ seq: 4, dir: 'c2s', hex: '00000008fffffffe0000000b' }),
      '',
      'not json',
      line({ seq: 6, hex: '00' }),
    ]);
    expect(results.map((r) => r.ok)).toStrictEqual([true, false, false, false, true, false, false]);
    expect(results[1]!.json).toStrictEqual({ seq: 1, conn: 1, dir: 'c2s', error: 'bad hex: odd number of digits (9)' });
    expect(results[2]!.json['error']).toBe('truncated frame: the length prefix says 8 payload byte(s), only 5 present');
    expect(results[3]!.json['error']).toBe('lying length prefix: it says 4 payload byte(s) but the frame holds 8');
    expect(results[4]!.json).toMatchObject({ kind: 'request', xid: -2, op: 'ping', decoded: { header: { xid: -2, type: 11 } } });
    expect(results[5]!.json['error']).toMatch(/^not a JSON line/);
    expect(results[6]!.json['error']).toMatch(/"dir" must be/);
  });

  it('decodes connections independently (default conn 1)', async () => {
    const results = await run([
      line({ conn: 1, dir: 'c2s', hex: CONNECT }),
      line({ conn: 2, dir: 'c2s', hex: CONNECT }),
      line({ dir: 'c2s', hex: '00000008fffffffe0000000b' }),
    ]);
    expect(results.map((r) => r.json['kind'])).toStrictEqual(['connect-request', 'connect-request', 'request']);
    expect(results.map((r) => r.json['seq'])).toStrictEqual([0, 1, 2]);
  });

  it('--check reports a frame that does not re-encode to the same bytes', async () => {
    // A boolean written as 0x02: Java reads it as true, we re-encode 0x01.
    const input = [line({ dir: 'c2s', hex: CONNECT }), line({ dir: 'c2s', hex: '0000000f0000000100000003000000022f6102' })];
    const [, r] = await run(input, { check: true });
    expect(r!.ok).toBe(false);
    expect(String(r!.json['check_error'])).toMatch(/differ from the original 19 at offset 18/);
    const [, plain] = await run(input);
    expect(plain!.ok).toBe(true);
  });

  it('--pretty prints time, conn, direction, xid, op, path and error name', async () => {
    const file = readFileSync(join(GOLDEN_DIR, 'errors.jsonl'), 'utf8').split('\n');
    const json = await run(file);
    const results = await run(file, { pretty: true });
    const nonode = results[json.findIndex((r) => r.json['err'] === 'NONODE' && r.json['errCode'] === -101)]!;
    expect(nonode.line).toMatch(/^\s*\d+\.\d{3} #\d+ s2c ← xid=\d+\s+\S+ \/\S+ NONODE zxid=0x[0-9a-f]+$/);
  });
});

describe('the built CLI', () => {
  const main = join(process.cwd(), 'dist/cli/main.js');

  it('exists (npm test builds first)', () => {
    expect(existsSync(main), 'run `npm run build` first').toBe(true);
  });

  it('exits 0 on a clean capture and 1 on raw_edge_cases, printing one line per frame', () => {
    const clean = spawnSync(process.execPath, [main, 'decode', '--check', join(GOLDEN_DIR, 'multi.jsonl')], { encoding: 'utf8' });
    expect(clean.status).toBe(0);
    expect(clean.stdout.trim().split('\n')).toHaveLength(loadGolden('multi.jsonl').length);
    const edge = spawnSync(process.execPath, [main, 'decode', '--check', join(GOLDEN_DIR, 'raw_edge_cases.jsonl')], { encoding: 'utf8' });
    expect(edge.status).toBe(1);
    expect(edge.stdout.split('\n').filter((l) => l.includes('"error"'))).toHaveLength(2);
  });

  it('--pretty names create flags, ACL permissions and addWatch modes', () => {
    const pretty = (file: string): string =>
      spawnSync(process.execPath, [main, 'decode', '--pretty', join(GOLDEN_DIR, file)], { encoding: 'utf8' }).stdout;
    expect(pretty('create_modes.jsonl')).toMatch(/create \S+ data="e"\(1B\) flags=EPHEMERAL acl=\[cdrwa world:anyone\]/);
    expect(pretty('add_watch_recursive.jsonl')).toMatch(/addWatch \/\S+ mode=PERSISTENT_RECURSIVE/);
    expect(pretty('acl.jsonl')).toMatch(/setACL \S+ acl=\[ra world:anyone\]/);
  });

  it('says a missing file is missing (exit 1), not that frames failed', () => {
    const r = spawnSync(process.execPath, [main, 'decode', '/nonexistent-capture.jsonl'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('zkwire decode: /nonexistent-capture.jsonl: no such file\n');
  });

  it('reads stdin with -, takes global flags anywhere, and refuses unknown commands', () => {
    const stdin = spawnSync(process.execPath, [main, 'decode', '-', '--json'], { input: `${line({ dir: 'c2s', hex: CONNECT })}\n`, encoding: 'utf8' });
    expect(stdin.status).toBe(0);
    expect(JSON.parse(stdin.stdout)).toMatchObject({ kind: 'connect-request', decoded: { timeOut: 30000, readOnly: false } });
    const help = spawnSync(process.execPath, [main, '--help', 'decode'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: zkwire decode/);
    const unknown = spawnSync(process.execPath, [main, 'frobnicate'], { encoding: 'utf8' });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command frobnicate/);
    expect(spawnSync(process.execPath, [main], { encoding: 'utf8' }).status).toBe(2);
  });
});
