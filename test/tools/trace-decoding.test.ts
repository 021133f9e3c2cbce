/**
 * The tracer's decoding side without sockets: every golden conversation, fed as the proxy would see it (in wire
 * order, each frame cut into random chunks), comes out as the same frames with the same kinds; plus the pieces the
 * summary and the command line rest on (latency percentiles, frame cutting, addresses, the printed line).
 */

import { describe, expect, it } from 'vitest';
import { TracedConnection } from '../../src/tools/trace/connection.js';
import { ConnectionSplitter, FrameSplitter } from '../../src/testing/frame-splitter.js';
import { formatHostPort, parseHostPort } from '../../src/tools/trace/host-port.js';
import { latencySummary, msHistogram } from '../../src/tools/shared/latency.js';
import { formatSummaryText, TraceSummarizer } from '../../src/tools/trace/index.js';
import type { CaptureConnection, CaptureEvent, FrameEvent } from '../../src/tools/capture/events.js';
import { CaptureEventPrinter } from '../../src/tools/decode/printer.js';
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

/** The events the proxy would report for a golden conversation: each connection's open (as the proxy emits it), then its connection's. */
function traceGolden(file: string, seed: number): CaptureEvent[] {
  const events: CaptureEvent[] = [];
  const random = lcg(seed);
  let tick = 0;
  const conns = new Map<number, { traced: TracedConnection; splitter: ConnectionSplitter }>();
  const hooks = { nowUs: () => 1_700_000_000_000_000 + 1000 * tick++, emit: (e: CaptureEvent) => events.push(e) };
  for (const line of loadGolden(file)) {
    let conn = conns.get(line.conn);
    if (conn === undefined) {
      const id: CaptureConnection = { id: String(line.conn), client: `127.0.0.1:${40000 + line.conn}`, server: '127.0.0.1:2181' };
      events.push({ type: 'open', conn: id, timeUs: hooks.nowUs(), midStream: false });
      conn = { traced: new TracedConnection(id, hooks), splitter: new ConnectionSplitter({ c2s: 64 * 1024 * 1024, s2c: 64 * 1024 * 1024 }) };
      conns.set(line.conn, conn);
    }
    for (let at = 0; at < line.bytes.length; ) {
      const n = 1 + Math.floor(random() * 40);
      // As the framing proxy does: cut the chunk, hand over each direction's pieces.
      const pieces = conn.splitter.push(line.dir, line.bytes.subarray(at, at + n));
      for (const dir of ['c2s', 's2c'] as const) if (pieces[dir].length > 0) conn.traced.frames(dir, pieces[dir]);
      at += n;
    }
  }
  for (const { traced, splitter } of conns.values()) traced.closed('client', undefined, { c2s: splitter.takeHeld('c2s'), s2c: splitter.takeHeld('s2c') });
  return events;
}

const framesOf = (events: CaptureEvent[]): FrameEvent[] => events.filter((e): e is FrameEvent => e.type === 'frame');

/** The readable lines `zkwire trace` prints for these events. */
function printed(events: CaptureEvent[]): string[] {
  const printer = new CaptureEventPrinter({ pretty: true, connections: true, redactCredentials: true });
  return events.flatMap((e) => printer.format(e)?.line ?? []);
}

describe('TracedConnection over the golden captures', () => {
  for (const file of goldenFiles()) {
    it(`${file}: the same frames, kinds and connections, whatever the chunking`, () => {
      const golden = loadGolden(file);
      for (const seed of [1, 2, 3]) {
        const events = traceGolden(file, seed);
        // Per connection and direction the order is the wire order (records of different connections may interleave
        // differently, because a connection's 4lw text is reported when it closes).
        const key = (conn: number, dir: string): string => `${conn} ${dir}`;
        const want = new Map<string, string[]>();
        for (const g of golden) want.set(key(g.conn, g.dir), [...(want.get(key(g.conn, g.dir)) ?? []), `${g.kind} ${g.hex}`]);
        const got = new Map<string, string[]>();
        for (const e of events) {
          if (e.type !== 'frame' && !(e.type === 'gap' && e.undecoded !== undefined)) continue;
          const [kind, bytes] = e.type === 'gap' ? [e.undecoded!.kind, e.undecoded!.bytes] : [e.frame.kind, e.bytes];
          const k = key(Number(e.conn.id), e.dir);
          got.set(k, [...(got.get(k) ?? []), `${kind} ${hex(bytes)}`]);
        }
        expect(got).toEqual(want);
        // Only the README's deliberate decode error fails to decode.
        const errors = framesOf(events).flatMap((e) => (e.frame.error !== undefined ? [e.frame.error] : []));
        expect(errors).toHaveLength(golden.filter((g) => g.decode_error !== undefined).length);
      }
    });
  }

  it('gives replies the time since their request, and tags frames with the session once known', () => {
    const frames = framesOf(traceGolden('exists_watch.jsonl', 7));
    const replies = frames.filter((f) => f.frame.kind === 'reply' || f.frame.kind === 'connect-response');
    expect(replies.length).toBeGreaterThan(3);
    expect(replies.every((f) => f.latencyMs !== undefined && f.latencyMs > 0)).toBe(true);
    expect(frames[0]!.sessionId).toBe(undefined);
    expect(frames.slice(1).every((f) => f.sessionId !== undefined && f.sessionId > 0n)).toBe(true);
    const notifications = frames.filter((f) => f.frame.kind === 'notification');
    expect(notifications.every((f) => f.latencyMs === undefined)).toBe(true);
  });

  it('prints the marks people grep for: EVENT, PING, result names and latencies', () => {
    const lines = ['exists_watch.jsonl', 'ping.jsonl', 'four_letter_words.jsonl'].flatMap((f) => printed(traceGolden(f, 1)));
    expect(lines.some((l) => / s2c ← EVENT NodeCreated \/\S+$/.test(l))).toBe(true);
    expect(lines.some((l) => / c2s → xid=-2 +PING$/.test(l))).toBe(true);
    expect(lines.some((l) => / s2c ← xid=-2 +PING OK \d+\.\d+ms$/.test(l))).toBe(true);
    expect(lines.some((l) => / s2c ← xid=\d+ +exists \/\S+ NONODE \d+\.\d+ms zxid=0x/.test(l))).toBe(true);
    expect(lines.some((l) => / c2s → 4LW command "ruok"$/.test(l))).toBe(true);
    expect(lines.some((l) => /#1 0x[0-9a-f]+ +closed by client; c2s \d+ B, s2c \d+ B$/.test(l))).toBe(true);
  });

  it('summarizes per op with ordered percentiles, and names errors', () => {
    const stats = new TraceSummarizer();
    for (const e of traceGolden('errors.jsonl', 3)) stats.add(e);
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
    const events = traceGolden('auth_digest.jsonl', 5);
    const printer = new CaptureEventPrinter({ connections: true, redactCredentials: true });
    const lines = events.flatMap((e) => printer.format(e)?.line ?? []);
    const json = lines.find((l) => l.includes('"op":"auth"') && l.includes('"dir":"c2s"'))!;
    expect(json).toContain('"scheme":"digest"');
    expect(json).toContain('"auth":{"len":12,"redacted":true}');
    expect(json).not.toContain('secret');
    expect(lines.join('\n')).not.toContain('alice:secret');
    expect(lines.join('\n')).not.toContain(Buffer.from('alice:secret').toString('hex'));
    expect(printed(events).join('\n')).not.toContain('alice:secret');
    // A capture decoded later shows what it holds (the same printer without the option).
    const plain = new CaptureEventPrinter();
    expect(events.flatMap((e) => plain.format(e)?.line ?? []).join('\n')).toContain('alice:secret');
  });
});
