/**
 * Codec throughput: encode and decode of the frames a client sends and receives most, measured in rounds so the
 * spread is visible. No server is involved; the numbers are the ceiling the codec puts on a session.
 *
 *   npm run bench:codec -- [--json FILE] [--rounds N] [--round-ms MS]
 *
 * Encode = whole frames into one reused JuteWriter (what the session does). Decode = FrameDecoder over a buffer of
 * back-to-back frames, then header + body records (what the session does with received bytes).
 */

import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import {
  decodeReplyHeader,
  decodeRequestBody,
  decodeRequestHeader,
  decodeResponseBody,
  encodeReplyFrame,
  encodeRequestFrame,
  FrameDecoder,
  JuteReader,
  JuteWriter,
  OpCode,
  type Stat,
} from '../src/protocol/index.js';

interface Scenario {
  name: string;
  /** Appends one frame to w (the i-th of a batch). */
  encode(w: JuteWriter, i: number): void;
  /** Decodes one frame payload; returns something derived from it so the work cannot be skipped. */
  decode(payload: Uint8Array): number;
}

const stat: Stat = {
  czxid: 0x1_0000_0051n,
  mzxid: 0x1_0000_0052n,
  ctime: 1795236927726n,
  mtime: 1795236927726n,
  version: 3,
  cversion: 1000,
  aversion: 0,
  ephemeralOwner: 0n,
  dataLength: 1024,
  numChildren: 1000,
  pzxid: 0x1_0000_0053n,
};

const data1k = new Uint8Array(1024).map((_, i) => i & 0xff);
const children = Array.from({ length: 1000 }, (_, i) => `_c_8a1f3b2e-lock-${String(i).padStart(10, '0')}`);

function requestDecoder(payload: Uint8Array): number {
  const r = new JuteReader(payload);
  const h = decodeRequestHeader(r);
  const body = decodeRequestBody(h.type, r) as { path: string };
  return h.xid + body.path.length;
}

function replyDecoder(opcode: number): (payload: Uint8Array) => number {
  return (payload) => {
    const r = new JuteReader(payload);
    const h = decodeReplyHeader(r);
    const body = decodeResponseBody(opcode, r) as { stat: Stat };
    return h.xid + body.stat.version;
  };
}

const SCENARIOS: Scenario[] = [
  {
    name: 'getData/exists request',
    encode: (w, i) =>
      encodeRequestFrame(w, { xid: i + 1, type: i & 1 ? OpCode.exists : OpCode.getData }, { path: '/app/locks/resource-42', watch: (i & 2) !== 0 }),
    decode: requestDecoder,
  },
  {
    name: 'getData reply, 1 KiB data',
    encode: (w, i) => encodeReplyFrame(w, { xid: i + 1, zxid: 0x1_0000_0100n, err: 0 }, OpCode.getData, { data: data1k, stat }),
    decode: replyDecoder(OpCode.getData),
  },
  {
    name: 'getChildren2 reply, 1000 children',
    encode: (w, i) => encodeReplyFrame(w, { xid: i + 1, zxid: 0x1_0000_0100n, err: 0 }, OpCode.getChildren2, { children, stat }),
    decode: replyDecoder(OpCode.getChildren2),
  },
];

interface RoundFigure {
  framesPerSec: number;
  mbPerSec: number;
}

interface Result {
  scenario: string;
  direction: 'encode' | 'decode';
  frameBytes: number;
  rounds: RoundFigure[];
}

let sink = 0;

/** Frames per batch: enough work per timer read, small enough that the batch buffer stays in cache-ish sizes. */
function batchSize(frameBytes: number): number {
  return Math.max(16, Math.min(4096, Math.floor((1 << 20) / frameBytes)));
}

function measure(roundMs: number, batch: number, frameBytes: number, work: () => void): RoundFigure {
  let frames = 0;
  const start = performance.now();
  let now = start;
  while (now - start < roundMs) {
    work();
    frames += batch;
    now = performance.now();
  }
  const secs = (now - start) / 1000;
  return { framesPerSec: frames / secs, mbPerSec: (frames * frameBytes) / secs / 1e6 };
}

function runScenario(s: Scenario, rounds: number, warmup: number, roundMs: number): Result[] {
  const probe = new JuteWriter();
  s.encode(probe, 0);
  const frameBytes = probe.length;
  const batch = batchSize(frameBytes);

  const w = new JuteWriter(frameBytes * batch + 64);
  const encodeBatch = (): void => {
    w.reset();
    for (let i = 0; i < batch; i++) s.encode(w, i);
    sink ^= w.length;
  };

  encodeBatch();
  const stream = w.toBytes();
  const decodeBatch = (): void => {
    const d = new FrameDecoder();
    d.push(stream);
    for (;;) {
      const f = d.next();
      if (f.kind !== 'frame') break;
      sink ^= s.decode(f.payload);
    }
  };

  const out: Result[] = [];
  for (const [direction, work] of [
    ['encode', encodeBatch],
    ['decode', decodeBatch],
  ] as const) {
    for (let i = 0; i < warmup; i++) measure(roundMs, batch, frameBytes, work);
    const figures: RoundFigure[] = [];
    for (let i = 0; i < rounds; i++) figures.push(measure(roundMs, batch, frameBytes, work));
    out.push({ scenario: s.name, direction, frameBytes, rounds: figures });
  }
  return out;
}

function percentile(sorted: number[], p: number): number {
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.round((p / 100) * (sorted.length - 1))));
  return sorted[idx]!;
}

function summarize(r: Result) {
  const fps = r.rounds.map((x) => x.framesPerSec).sort((a, b) => a - b);
  const mbs = r.rounds.map((x) => x.mbPerSec).sort((a, b) => a - b);
  return {
    scenario: r.scenario,
    direction: r.direction,
    frameBytes: r.frameBytes,
    framesPerSec: { p10: percentile(fps, 10), p50: percentile(fps, 50), p90: percentile(fps, 90) },
    mbPerSec: { p10: percentile(mbs, 10), p50: percentile(mbs, 50), p90: percentile(mbs, 90) },
    rounds: r.rounds,
  };
}

function fmt(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return n.toFixed(1);
}

function main(): void {
  const args = process.argv.slice(2);
  const opt = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const rounds = Number(opt('--rounds') ?? 10);
  const roundMs = Number(opt('--round-ms') ?? 200);
  const warmup = 3;
  const jsonFile = opt('--json');

  const results = SCENARIOS.flatMap((s) => runScenario(s, rounds, warmup, roundMs)).map(summarize);

  const header = ['scenario', 'dir', 'bytes/frame', 'frames/s p10', 'p50', 'p90', 'MB/s p10', 'p50', 'p90'];
  const rows = results.map((r) => [
    r.scenario,
    r.direction,
    String(r.frameBytes),
    fmt(r.framesPerSec.p10),
    fmt(r.framesPerSec.p50),
    fmt(r.framesPerSec.p90),
    r.mbPerSec.p10.toFixed(1),
    r.mbPerSec.p50.toFixed(1),
    r.mbPerSec.p90.toFixed(1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  const env = `node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'}, ${rounds} rounds x ${roundMs} ms after ${warmup} warm-up rounds (per-round throughput percentiles)`;
  console.log(`zkwire codec benchmark — ${env}`);
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (i < 2 ? ` ${'-'.repeat(w)} ` : ` ${'-'.repeat(w - 1)}: `)).join('|')}|`);
  for (const r of rows) console.log(line(r));
  if (jsonFile !== undefined) {
    writeFileSync(jsonFile, `${JSON.stringify({ benchmark: 'codec', environment: env, results }, null, 2)}\n`);
    console.log(`figures written to ${jsonFile}`);
  }
  if (sink === 0.5) console.log(''); // keeps `sink` observable so no work is optimised away
}

main();
