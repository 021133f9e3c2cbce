/** `zkwire trace`: the decoding proxy (src/tools/trace) on the command line, until Ctrl-C or SIGTERM. */

import fs from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { parseConnectString } from '../../session/connect-string.js';
import { withServer } from '../../tools/local-server/with-server.js';
import { formatHostPort, parseHostPort } from '../../tools/trace/host-port.js';
import {
  CaptureFormatter,
  formatRecordJson,
  formatRecordText,
  formatSummaryText,
  startTraceProxy,
  type HostPort,
  type TraceProxy,
  type TraceRecord,
} from '../../tools/trace/index.js';
import { renderReportText, type AnalyzeOptions } from '../../tools/analyze/index.js';
import { LiveAnalysis } from '../../tools/analyze/live.js';
import { renderReportHtml } from '../../tools/analyze/render-html.js';
import { renderLiveSnapshot } from '../../tools/analyze/render-live.js';
import { preciseNowUs } from '../../tools/trace/capture-events.js';
import type { CliIo, Command } from '../types.js';

const usage = `Usage: zkwire trace [--listen HOST:PORT] [--upstream HOST:PORT] [--out FILE.jsonl] [--json]
                    [--analyze [--every SEC] [--html FILE] [--depth N] [--slow MS]]

A transparent TCP proxy for ZooKeeper traffic. Point any client (Java, Curator, kazoo, zkCli, zkwire) at the
--listen address; every byte is forwarded to --upstream unchanged and at once, and both directions are decoded
on the side: one line per frame with time, connection number, session id, direction, xid, op, path, result
and, for replies, the latency since the request. Notifications (EVENT), pings (PING), four-letter words (4LW)
and frames that cannot be decoded (UNDECODABLE, still forwarded) are marked. Ctrl-C or SIGTERM stops it and
prints a summary: requests, replies and errors per op, latency p50/p99/max per op.

Options:
  --listen HOST:PORT     where clients connect (default 127.0.0.1:2182; port 0 picks a free one)
  --upstream HOST:PORT   the ZooKeeper server (default: the first host of --server; with neither, a throwaway
                         local ZooKeeper is started for the session and stopped afterwards)
  --out FILE.jsonl       also write every frame's raw bytes as JSON lines {seq, t, ts, conn, dir, len, hex},
                         the \`zkwire decode\` input format: \`zkwire decode --pretty FILE.jsonl\` replays it
  --json                 one JSON object per line (frames with their decoded records, opens, closes, summary)
  --analyze              instead of a line per frame, keep the \`zkwire analyze\` analysis (ops, sessions,
                         watches, locks, guardrails) and show it every few seconds: a refreshed screen on a
                         terminal, plain snapshots otherwise; on Ctrl-C or SIGTERM print the full report
                         (with --json: only the final report, as JSON)
  --every SEC            seconds between snapshots with --analyze (default 3)
  --html FILE            with --analyze: write the report as one HTML page when the trace stops
  --depth N, --slow MS   as for \`zkwire analyze\`
  --help                 this text
`;

interface TraceArgs {
  listen: HostPort;
  upstream: HostPort | undefined;
  out: string | undefined;
  analyze: AnalyzeArgs | undefined;
}

interface AnalyzeArgs {
  everyMs: number;
  html: string | undefined;
  opts: AnalyzeOptions;
}

const ANALYZE_OPTIONS = new Set(['--every', '--html', '--depth', '--slow']);

function parseTraceArgs(args: readonly string[]): TraceArgs | string {
  let listen: HostPort = { host: '127.0.0.1', port: 2182 };
  let upstream: HostPort | undefined;
  let out: string | undefined;
  let analyze = false;
  const live: AnalyzeArgs = { everyMs: 3000, html: undefined, opts: {} };
  const liveOptions: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--analyze') {
      analyze = true;
      continue;
    }
    const eq = a.indexOf('=');
    const name = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    if (name !== '--listen' && name !== '--upstream' && name !== '--out' && !ANALYZE_OPTIONS.has(name)) return `unknown option ${a}`;
    const value = eq > 0 && name !== a ? a.slice(eq + 1) : args[++i];
    if (value === undefined) return `${name} needs a value`;
    if (ANALYZE_OPTIONS.has(name)) {
      liveOptions.push(name);
      if (name === '--html') {
        live.html = value;
        continue;
      }
      const n = Number(value);
      const min = name === '--slow' ? 0 : name === '--every' ? 0.1 : 1;
      if (!Number.isFinite(n) || n < min || (name !== '--every' && !Number.isInteger(n))) return `${name} must be a number ≥ ${min}, got ${JSON.stringify(value)}`;
      if (name === '--every') live.everyMs = n * 1000;
      else if (name === '--depth') live.opts.depth = n;
      else live.opts.slowMs = n;
    } else if (name === '--out') out = value;
    else {
      const parsed = parseHostPort(value, { allowPortZero: name === '--listen' });
      if (typeof parsed === 'string') return `${name}: ${parsed}`;
      if (name === '--listen') listen = parsed;
      else upstream = parsed;
    }
  }
  if (!analyze && liveOptions.length > 0) return `${liveOptions[0]} needs --analyze`;
  return { listen, upstream, out, analyze: analyze ? live : undefined };
}

/** Resolves on the first SIGINT or SIGTERM; our handlers replace the default "die at once" for the session. */
function untilSignal(): { done: Promise<NodeJS.Signals>; dispose(): void } {
  let onSignal: (s: NodeJS.Signals) => void = () => {};
  const done = new Promise<NodeJS.Signals>((resolve) => {
    onSignal = resolve;
  });
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    done,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

async function openOut(file: string): Promise<fs.WriteStream> {
  const stream = fs.createWriteStream(file);
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  return stream;
}

async function trace(opts: TraceArgs & { upstream: HostPort }, io: CliIo): Promise<number> {
  let out: fs.WriteStream | undefined;
  if (opts.out !== undefined) {
    try {
      out = await openOut(opts.out);
    } catch (e) {
      io.err(`zkwire trace: cannot write ${opts.out}: ${e instanceof Error ? e.message : String(e)}\n`);
      return 1;
    }
  }
  const capture = new CaptureFormatter();
  const analysis = opts.analyze === undefined ? undefined : new LiveAnalysis(preciseNowUs(performance.timeOrigin, () => performance.now()), opts.analyze.opts);
  const onRecord = (rec: TraceRecord): void => {
    if (analysis !== undefined) analysis.record(rec);
    else io.out(`${io.globals.json ? JSON.stringify(formatRecordJson(rec)) : formatRecordText(rec)}\n`);
    const line = out === undefined ? undefined : capture.line(rec);
    if (line !== undefined) out!.write(`${line}\n`);
  };
  const signals = untilSignal();
  let ticker: ReturnType<typeof setInterval> | undefined;
  try {
    let proxy: TraceProxy;
    try {
      proxy = await startTraceProxy({ listen: opts.listen, upstream: opts.upstream, onRecord });
    } catch (e) {
      io.err(`zkwire trace: cannot listen on ${formatHostPort(opts.listen)}: ${e instanceof Error ? e.message : String(e)}\n`);
      return 1;
    }
    io.err(
      `zkwire trace: listening on ${formatHostPort(proxy)}, forwarding to ${formatHostPort(opts.upstream)}` +
        `${opts.out === undefined ? '' : `, capturing to ${opts.out}`}; Ctrl-C prints the ${analysis === undefined ? "summary" : "report"}\n`,
    );
    if (analysis !== undefined && !io.globals.json) {
      const tty = process.stdout.isTTY === true;
      const title = `${formatHostPort(proxy)} → ${formatHostPort(opts.upstream)}`;
      ticker = setInterval(() => {
        const screen = renderLiveSnapshot(analysis.snapshot(), { connections: analysis.connections, title });
        // A terminal gets the screen redrawn in place; a pipe or file gets one snapshot after another.
        io.out(tty ? `\x1b[H\x1b[2J${screen}` : `--- ${new Date().toISOString()}\n${screen}`);
      }, opts.analyze!.everyMs);
    }
    await signals.done;
    if (ticker !== undefined) clearInterval(ticker);
    const summary = await proxy.stop();
    if (analysis === undefined) {
      io.out(io.globals.json ? `${JSON.stringify({ event: 'summary', ...summary })}\n` : `\n${formatSummaryText(summary)}\n`);
      return 0;
    }
    const report = analysis.final();
    io.out(io.globals.json ? `${JSON.stringify(report)}\n` : `\n${renderReportText(report)}`);
    const html = opts.analyze!.html;
    if (html !== undefined) {
      try {
        await writeFile(html, renderReportHtml(report, { title: `trace ${formatHostPort(proxy)} → ${formatHostPort(opts.upstream)}` }));
        io.err(`zkwire trace: report written to ${html}\n`);
      } catch (e) {
        io.err(`zkwire trace: cannot write ${html}: ${e instanceof Error ? e.message : String(e)}\n`);
        return 1;
      }
    }
    return 0;
  } finally {
    if (ticker !== undefined) clearInterval(ticker);
    signals.dispose();
    if (out !== undefined) await new Promise<void>((resolve) => out!.end(() => resolve()));
  }
}

export const traceCommand: Command = {
  name: 'trace',
  summary: 'decoding proxy: forward a client to a server and print every frame, with a summary on Ctrl-C',
  usage,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseTraceArgs(args);
    if (typeof parsed === 'string') {
      io.err(`zkwire trace: ${parsed}\n\n${usage}`);
      return 2;
    }
    if (parsed.upstream !== undefined) return trace({ ...parsed, upstream: parsed.upstream }, io);
    if (io.globals.server !== undefined) {
      let first: HostPort | undefined;
      try {
        first = parseConnectString(io.globals.server).hosts[0];
      } catch (e) {
        io.err(`zkwire trace: --server: ${e instanceof Error ? e.message : String(e)}\n`);
        return 2;
      }
      if (first === undefined) return 2;
      return trace({ ...parsed, upstream: first }, io);
    }
    try {
      return await withServer(io.globals, io, (server) => {
        const host = server.local!;
        return trace({ ...parsed, upstream: { host: host.host, port: host.port } }, io);
      });
    } catch (e) {
      io.err(`zkwire trace: ${e instanceof Error ? e.message : String(e)}\n`);
      return 1;
    }
  },
};
