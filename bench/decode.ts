/**
 * bench/decode: how fast `zkwire decode` reads a packet capture, and that its memory does not grow with the file.
 * Generates a pcap of at least 500 MB (bench/decode-capture-gen.ts: 24 interleaved sessions, a realistic op mix)
 * in os.tmpdir(), then over several rounds measures:
 *   - the floor: reading the file with no decoding at all (the disk/page-cache speed in this run);
 *   - events: readCaptureEvents (pcap → TCP reassembly → framing → ConversationDecoder), MB/s and frames/s;
 *   - analyze: the same events folded into `zkwire analyze`'s report (ops, sessions, watches, locks, guardrails);
 *   - JSON: the same plus formatting every line as `zkwire decode` prints it (discarded, not written);
 * with peak RSS sampled every 50 ms, and RSS when 100 MB and 500 MB of the file had been read (flat = bounded).
 * The file is removed at the end, also on Ctrl-C.
 *
 *   npm run bench:decode -- [--mb N] [--rounds N] [--only analyze]   (--only: run the floor and that one mode, e.g. to profile it)
 */

import { createReadStream, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Analyzer } from '../src/tools/analyze/index.js';
import { readCaptureEventBatches } from '../src/tools/capture/index.js';
import { fmtMB, renderTable } from '../src/tools/shared/table.js';
import { CaptureEventPrinter } from '../src/tools/decode/printer.js';
import { writeBenchCapture } from './decode-capture-gen.js';

const TARGET_MB_S = 50;
const MB = 1024 * 1024;

interface Round {
  seconds: number;
  frames: number;
  peakRss: number;
  rssAt: Map<number, number>;
}

function sampler(): { stop: () => number } {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 50);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage.rss());
    },
  };
}

/** Reads the file chunk by chunk, noting RSS as the read offset passes each mark. */
async function* chunks(file: string, marks: number[], rssAt: Map<number, number>): AsyncGenerator<Uint8Array> {
  let read = 0;
  let next = 0;
  for await (const c of createReadStream(file, { highWaterMark: MB })) {
    read += (c as Buffer).length;
    while (next < marks.length && read >= marks[next]!) rssAt.set(marks[next++]!, process.memoryUsage.rss());
    yield c as Buffer;
  }
}

type Mode = 'floor' | 'events' | 'analyze' | 'json';
const MODES: readonly Mode[] = ['floor', 'events', 'analyze', 'json'];

async function round(file: string, mode: Mode, marks: number[]): Promise<Round> {
  const rssAt = new Map<number, number>();
  const s = sampler();
  const start = performance.now();
  let frames = 0;
  if (mode === 'floor') {
    for await (const c of chunks(file, marks, rssAt)) frames += c.length > 0 ? 0 : 1;
  } else {
    const printer = mode === 'json' ? new CaptureEventPrinter() : undefined;
    const analyzer = mode === 'analyze' ? new Analyzer() : undefined;
    let chars = 0;
    for await (const batch of readCaptureEventBatches(chunks(file, marks, rssAt), { ports: [2181] })) {
      for (const e of batch) {
        if (e.type === 'frame') frames++;
        if (printer !== undefined) chars += printer.format(e)?.line.length ?? 0;
        analyzer?.add(e);
      }
    }
    // The report is part of the work (percentiles, lock timelines), so it is timed too.
    if (analyzer !== undefined) chars += analyzer.report().sessions.length;
    if (chars < 0) throw new Error('unreachable');
  }
  const seconds = (performance.now() - start) / 1000;
  return { seconds, frames, peakRss: s.stop(), rssAt };
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string, dflt: number): number => {
    const i = args.indexOf(name);
    return i >= 0 ? Number(args[i + 1]) : dflt;
  };
  const targetMb = opt('--mb', 512);
  const rounds = opt('--rounds', 5);
  const onlyAt = args.indexOf('--only');
  const only = onlyAt >= 0 ? (args[onlyAt + 1] as Mode) : undefined;
  if (only !== undefined && !MODES.includes(only)) throw new Error(`--only: one of ${MODES.join(', ')}`);
  const modes = MODES.filter((m) => only === undefined || m === 'floor' || m === only);
  const file = join(tmpdir(), `zkwire-bench-decode-${process.pid}.pcap`);
  const cleanup = (): void => rmSync(file, { force: true });
  process.once('SIGINT', () => {
    cleanup();
    process.exit(130);
  });
  try {
    process.stderr.write(`  … writing a ${targetMb} MB capture to ${file}\n`);
    const t0 = performance.now();
    const gen = writeBenchCapture(file, targetMb * MB);
    const size = statSync(file).size;
    process.stderr.write(`  … ${fmtMB(size)}, ${gen.frames} frames, written in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    const marks = [100 * MB, 500 * MB].filter((m) => m <= size);

    const results: Record<Mode, Round[]> = { floor: [], events: [], analyze: [], json: [] };
    for (let r = 0; r < rounds; r++) {
      for (const mode of modes) {
        const res = await round(file, mode, marks);
        if (mode !== 'floor' && res.frames !== gen.frames) throw new Error(`${mode}: decoded ${res.frames} frames, the capture holds ${gen.frames}`);
        results[mode].push(res);
        process.stderr.write(`  … round ${r + 1}/${rounds} ${mode}: ${(size / MB / res.seconds).toFixed(1)} MB/s\n`);
      }
    }

    const floorMedian = pct(results.floor.map((r) => size / MB / r.seconds).sort((a, b) => a - b), 50);
    const rows = modes.map((mode) => {
      const rates = results[mode].map((r) => size / MB / r.seconds).sort((a, b) => a - b);
      const fps = results[mode].map((r) => r.frames / r.seconds).sort((a, b) => a - b);
      const peak = Math.max(...results[mode].map((r) => r.peakRss));
      const name = { floor: 'floor: read the file only', events: 'decode: capture events', analyze: 'decode + analyze (zkwire analyze)', json: 'decode: events + JSON lines' }[mode];
      return [
        name,
        `${pct(rates, 0).toFixed(1)}`,
        `${pct(rates, 50).toFixed(1)}`,
        `${pct(rates, 90).toFixed(1)}`,
        `${pct(rates, 100).toFixed(1)}`,
        mode === 'floor' ? '–' : `${(pct(fps, 50) / 1000).toFixed(1)}k`,
        `${(pct(rates, 50) / floorMedian).toFixed(3)}×`,
        fmtMB(peak),
      ];
    });
    let out = `zkwire bench decode — ${fmtMB(size)} pcap, ${gen.frames} frames, 24 sessions, ${rounds} rounds; node ${process.version}, ${cpus()[0]?.model ?? '?'} ×${cpus().length}\n\n`;
    out += renderTable(['MB/s (per round)', 'min', 'p50', 'p90', 'max', 'frames/s p50', 'p50 vs floor', 'peak RSS'], rows);
    const rssRows = modes.filter((m) => m !== 'floor').map((mode) => {
      const at = (m: number): number => Math.max(...results[mode].map((r) => r.rssAt.get(m) ?? 0));
      return [mode, ...marks.map((m) => fmtMB(at(m))), marks.length === 2 ? `${(at(marks[1]!) / at(marks[0]!)).toFixed(2)}×` : '–'];
    });
    out += `\n${renderTable(['RSS while reading', ...marks.map((m) => `at ${m / MB} MB`), '500 MB / 100 MB'], rssRows)}`;
    const eventsP50 = results.events.length === 0 ? NaN : pct(results.events.map((r) => size / MB / r.seconds).sort((a, b) => a - b), 50);
    out += `\ntarget ≥ ${TARGET_MB_S} MB/s for capture events: ${eventsP50 >= TARGET_MB_S ? 'met' : 'NOT met'} (p50 ${eventsP50.toFixed(1)} MB/s)\n`;
    process.stdout.write(out);
  } finally {
    cleanup();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench decode: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
