/**
 * The tracer's decoding side without sockets: every golden conversation, fed as the proxy would see it (in wire
 * order, each frame cut into random chunks), comes out as the same frames with the same kinds; plus the pieces the
 * summary and the command line rest on (latency percentiles, frame cutting, addresses, the printed line).
 */

import { describe, expect, it } from 'vitest';
import { TracedConnection } from '../../src/tools/trace/connection.js';
import { FrameSplitter } from '../../src/testing/frame-splitter.js';
import { formatHostPort, parseHostPort } from '../../src/tools/trace/host-port.js';
import { TraceEventAdapter } from '../../src/tools/trace/capture-source.js';
import { latencySummary, msHistogram } from '../../src/tools/shared/latency.js';
import { formatRecordJson, formatRecordText, formatSummaryText, TraceSummarizer, type TraceRecord } from '../../src/tools/trace/index.js';
import { goldenFiles, loadGolden } from '../protocol/golden.js';
import { hex } from './trace-helpers.js';

/** Deterministic pseudo-random numbers, so a failure can be replayed. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function traceGolden(file: string, seed: number): TraceRecord[] {
  const records: TraceRecord[] = [];
  const random = lcg(seed);
  let tick = 0;
  let seq = 0;
  const conns = new Map<number, TracedConnection>();
  const hooks = { clock: { wall: () => 1_700_000_000_000 + tick, mono: () => tick++ }, nextSeq: () => seq++, emit: (r: TraceRecord) => records.push(r) };
  for (const line of loadGolden(file)) {
    let conn = conns.get(line.conn);
    if (conn === undefined) {
      conn = new TracedConnection(line.conn, hooks, 64 * 1024 * 1024);
      conns.set(line.conn, conn);
    }
    for (let at = 0; at < line.bytes.length; ) {
      const n = 1 + Math.floor(random() * 40);
      conn.observe(line.dir, line.bytes.subarray(at, at + n));
      at += n;
    }
  }
  for (const conn of conns.values()) conn.close('client', undefined);
  return records;
}

describe('TracedConnection over the golden captures', () => {
  for (const file of goldenFiles()) {
    it(`${file}: the same frames, kinds and connections, whatever the chunking`, () => {
      const golden = loadGolden(file);
      for (const seed of [1, 2, 3]) {
        const records = traceGolden(file, seed).filter((r) => r.type === 'frame' || r.type === 'raw');
        // Per connection and direction the order is the wire order (records of different connections may interleave
        // differently, because a connection's 4lw text is reported when it closes).
        const key = (conn: number, dir: string): string => `${conn} ${dir}`;
        const want = new Map<string, string[]>();
        for (const g of golden) want.set(key(g.conn, g.dir), [...(want.get(key(g.conn, g.dir)) ?? []), `${g.kind} ${g.hex}`]);
        const got = new Map<string, string[]>();
        for (const r of records) {
          if (r.type !== 'frame' && r.type !== 'raw') continue;
          const kind = r.type === 'raw' ? r.kind : r.frame.kind;
          got.set(key(r.conn, r.dir), [...(got.get(key(r.conn, r.dir)) ?? []), `${kind} ${hex(r.bytes)}`]);
        }
        expect(got).toEqual(want);
        // Only the README's deliberate decode error fails to decode.
        const errors = records.flatMap((r) => (r.type === 'frame' && r.frame.error !== undefined ? [r.frame.error] : []));
        expect(errors).toHaveLength(golden.filter((g) => g.decode_error !== undefined).length);
      }
    });
  }

  it('gives replies the time since their request, and tags frames with the session once known', () => {
    const records = traceGolden('exists_watch.jsonl', 7).filter((r) => r.type === 'frame');
    const replies = records.filter((r) => r.type === 'frame' && (r.frame.kind === 'reply' || r.frame.kind === 'connect-response'));
    expect(replies.length).toBeGreaterThan(3);
    expect(replies.every((r) => r.type === 'frame' && r.latencyMs !== undefined && r.latencyMs > 0)).toBe(true);
    const first = records[0]!;
    expect(first.type === 'frame' && first.sessionId).toBe(undefined);
    expect(records.slice(1).every((r) => r.type === 'frame' && r.sessionId !== undefined && r.sessionId > 0n)).toBe(true);
    const events = records.filter((r) => r.type === 'frame' && r.frame.kind === 'notification');
    expect(events.every((r) => r.type === 'frame' && r.latencyMs === undefined)).toBe(true);
  });

  it('prints the marks people grep for: EVENT, PING, result names and latencies', () => {
    const lines = [...traceGolden('exists_watch.jsonl', 1), ...traceGolden('ping.jsonl', 1), ...traceGolden('four_letter_words.jsonl', 1)].map(formatRecordText);
    expect(lines.some((l) => / s2c ← EVENT NodeCreated \/\S+$/.test(l))).toBe(true);
    expect(lines.some((l) => / c2s → xid=-2 +PING$/.test(l))).toBe(true);
    expect(lines.some((l) => / s2c ← xid=-2 +PING OK \d+\.\d+ms$/.test(l))).toBe(true);
    expect(lines.some((l) => / s2c ← xid=\d+ +exists \/\S+ NONODE \d+\.\d+ms zxid=0x/.test(l))).toBe(true);
    expect(lines.some((l) => / c2s → 4LW command "ruok"$/.test(l))).toBe(true);
    expect(lines.some((l) => /#1 0x[0-9a-f]+ +closed by client; c2s \d+ B, s2c \d+ B$/.test(l))).toBe(true);
  });

  it('summarizes per op with ordered percentiles, and names errors', () => {
    const stats = new TraceSummarizer();
    let us = 0;
    const adapter = new TraceEventAdapter(() => (us += 1000));
    const opened = new Set<number>();
    for (const r of traceGolden('errors.jsonl', 3)) {
      // The records of a TracedConnection start after the proxy's open record, which the adapter needs.
      if (!opened.has(r.conn)) for (const e of adapter.events({ type: 'open', conn: r.conn, time: r.time, client: 'client:1', upstream: 'server:2181' })) stats.add(e);
      opened.add(r.conn);
      for (const e of adapter.events(r)) stats.add(e);
    }
    const s = stats.summary();
    expect(Object.keys(s.errors).sort()).toEqual(['BADVERSION', 'INVALIDACL', 'NODEEXISTS', 'NONODE', 'NOTEMPTY']);
    const total = Object.values(s.ops).reduce((n, o) => n + Object.values(o.errors).reduce((a, b) => a + b, 0), 0);
    expect(total).toBe(Object.values(s.errors).reduce((a, b) => a + b, 0));
    for (const o of Object.values(s.ops)) {
      expect(o.replies).toBeLessThanOrEqual(o.requests);
      if (o.latencyMs !== null) expect(o.latencyMs.p50 <= o.latencyMs.p99 && o.latencyMs.p99 <= o.latencyMs.max).toBe(true);
    }
    expect(formatSummaryText(s)).toMatch(/^errors: BADVERSION \d+, INVALIDACL \d+, NODEEXISTS \d+, NONODE \d+, NOTEMPTY \d+$/m);
  });
});

describe('LatencyHistogram', () => {
  it('reports percentiles within 1% of the exact ones, never beyond the measured range', () => {
    const h = msHistogram();
    const random = lcg(42);
    const samples = Array.from({ length: 20_000 }, () => 0.05 + random() ** 3 * 200);
    for (const v of samples) h.record(v);
    samples.sort((a, b) => a - b);
    for (const p of [50, 90, 99, 99.9]) {
      const exact = samples[Math.ceil((p / 100) * samples.length - 1e-9) - 1]!;
      expect(Math.abs(h.percentile(p) - exact) / exact).toBeLessThan(0.01);
    }
    expect(h.max).toBe(samples.at(-1));
    expect(h.min).toBe(samples[0]);
    expect(h.percentile(100)).toBe(samples.at(-1));
    expect(latencySummary(msHistogram())).toBeNull();
  });
});

describe('FrameSplitter, as the tracer uses it', () => {
  it('keeps the length prefix, holds partial frames, and gives back everything after a broken prefix', () => {
    const c = new FrameSplitter(16);
    expect(c.push(Uint8Array.from([0, 0, 0, 2, 0xaa]))).toEqual([]);
    expect(c.push(Uint8Array.from([0xbb, 0, 0, 0, 0, 0, 0]))).toEqual([
      { kind: 'frame', bytes: Uint8Array.from([0, 0, 0, 2, 0xaa, 0xbb]) },
      { kind: 'frame', bytes: Uint8Array.from([0, 0, 0, 0]) },
    ]);
    const [broken] = c.push(Uint8Array.from([0, 99, 1])); // with the two zero bytes still held: length 99
    expect(broken).toMatchObject({ kind: 'raw', error: expect.stringMatching(/99 exceeds/) });
    expect(hex(broken!.bytes)).toBe('0000006301');
    expect(c.buffered).toBe(0);
  });
});

describe('addresses', () => {
  it('parses HOST:PORT, [IPv6]:PORT, :PORT and PORT', () => {
    expect(parseHostPort('10.0.0.1:2181')).toEqual({ host: '10.0.0.1', port: 2181 });
    expect(parseHostPort('[::1]:2182')).toEqual({ host: '::1', port: 2182 });
    expect(parseHostPort(':2183')).toEqual({ host: '127.0.0.1', port: 2183 });
    expect(parseHostPort('2184')).toEqual({ host: '127.0.0.1', port: 2184 });
    expect(parseHostPort('host:0', { allowPortZero: true })).toEqual({ host: 'host', port: 0 });
    expect(parseHostPort('host:0')).toMatch(/out of range/);
    expect(parseHostPort('host:http')).toMatch(/bad port/);
    expect(formatHostPort({ host: '::1', port: 1 })).toBe('[::1]:1');
  });
});

describe('--json output', () => {
  it('shows an AuthPacket without its credentials (the capture keeps the bytes)', () => {
    const records = traceGolden('auth_digest.jsonl', 5);
    const auth = records.find((r) => r.type === 'frame' && r.frame.op === 'auth' && r.dir === 'c2s')!;
    const json = JSON.stringify(formatRecordJson(auth));
    expect(json).toContain('"scheme":"digest"');
    expect(json).toContain('"auth":{"len":12,"redacted":true}');
    expect(json).not.toContain('secret');
    expect(json).not.toContain(Buffer.from('alice:secret').toString('hex'));
    expect(formatRecordText(auth)).not.toContain('secret');
  });
});
