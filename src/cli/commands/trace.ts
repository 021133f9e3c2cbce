/** `zkwire trace`: the decoding proxy (src/tools/trace) on the command line, until SIGINT, SIGTERM or SIGHUP. */

import fs from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { parseConnectString } from '../../node.js';
import { withServer } from '../../testing/local-server/with-server.js';
import { formatHostPort, parseHostPort } from '../../tools/trace/host-port.js';
import { formatSummaryText, startTraceProxy, type HostPort, type TraceProxy } from '../../tools/trace/index.js';
import { CaptureEventPrinter } from '../../tools/decode/printer.js';
import { renderReportText, type AnalyzeOptions } from '../../tools/analyze/index.js';
import { LiveAnalysis } from '../../tools/analyze/live.js';
import type { CaptureEvent } from '../../tools/capture/events.js';
import { JsonLinesWriter } from '../../tools/capture/jsonl-writer.js';
import { renderReportHtml } from '../../tools/analyze/render-html.js';
import { renderLiveSnapshot } from '../../tools/analyze/render-live.js';
import { ZooKeeperError } from '../../node.js';
import { securityOptions } from '../connection.js';
import { onInterrupt } from '../interrupt.js';
import { parseCommandArgs, usageError } from './node-client.js';
import type { CliIo, Command } from '../types.js';

const usage = `Usage: zkwire trace [--listen HOST:PORT] [--upstream HOST:PORT] [--out FILE.jsonl] [--json]
                    [--analyze [--every SEC] [--html FILE] [--depth N] [--slow MS]]

A transparent TCP proxy for ZooKeeper traffic. Point any client (Java, Curator, kazoo, zkCli, zkwire) at the
--listen address; every byte is forwarded to --upstream unchanged and at once, and both directions are decoded
on the side: one line per frame with time, connection number, session id, direction, xid, op, path, result
and, for replies, the latency since the request. Notifications (EVENT), pings (PING), four-letter words (4LW)
and frames that cannot be decoded (UNDECODABLE, still forwarded) are marked. SIGINT (Ctrl-C), SIGTERM or SIGHUP
stops it and prints a summary: requests, replies and errors per op, latency p50/p99/max per op; the exit status
is then 128 + the signal (130, 143, 129).

Options:
  --listen HOST:PORT     where clients connect (default 127.0.0.1:2182; port 0 picks a free one)
  --upstream HOST:PORT   the ZooKeeper server (default: the first host of --server; with neither, a throwaway
                         local ZooKeeper is started for the session and stopped afterwards); the global
                         --tls flags (or --config) make the proxy speak TLS to it, clients still connect
                         in plaintext, so a TLS-only ensemble's traffic can be decoded
  --out FILE.jsonl       also write every frame's raw bytes as JSON lines {seq, t, ts, conn, dir, len, hex},
                         the \`zkwire decode\` input format: \`zkwire decode --pretty FILE.jsonl\` replays it
  --json                 one JSON object per line (frames with their decoded records, opens, closes, summary)
  --analyze              instead of a line per frame, keep the \`zkwire analyze\` analysis (ops, sessions,
                         watches, locks, guardrails) and show it every few seconds: a refreshed screen on a
                         terminal, plain snapshots otherwise; on SIGINT, SIGTERM or SIGHUP print the full report
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

const ANALYZE_OPTIONS = ['--every', '--html', '--depth', '--slow'] as const;

function parseTraceArgs(args: readonly string[]): TraceArgs | string {
  const parsed = parseCommandArgs(args, { flags: ['--analyze'], valued: ['--listen', '--upstream', '--out', ...ANALYZE_OPTIONS], positionals: [], required: 0 });
  if (typeof parsed === 'string') return parsed;
  let listen: HostPort = { host: '127.0.0.1', port: 2182 };
  let upstream: HostPort | undefined;
  for (const name of ['--listen', '--upstream'] as const) {
    const value = parsed.values.get(name);
    if (value === undefined) continue;
    const hostPort = parseHostPort(value, { allowPortZero: name === '--listen' });
    if (typeof hostPort === 'string') return `${name}: ${hostPort}`;
    if (name === '--listen') listen = hostPort;
    else upstream = hostPort;
  }
  const given = ANALYZE_OPTIONS.filter((name) => parsed.values.has(name));
  if (!parsed.flags.has('--analyze')) {
    if (given.length > 0) return `${given[0]} needs --analyze`;
    return { listen, upstream, out: parsed.values.get('--out'), analyze: undefined };
  }
  const live: AnalyzeArgs = { everyMs: 3000, html: parsed.values.get('--html'), opts: {} };
  for (const name of ['--every', '--depth', '--slow'] as const) {
    const value = parsed.values.get(name);
    if (value === undefined) continue;
    const n = Number(value);
    const min = name === '--slow' ? 0 : name === '--every' ? 0.1 : 1;
    if (!Number.isFinite(n) || n < min || (name !== '--every' && !Number.isInteger(n))) return `${name} must be a number ≥ ${min}, got ${JSON.stringify(value)}`;
    if (name === '--every') live.everyMs = n * 1000;
    else if (name === '--depth') live.opts.depth = n;
    else live.opts.slowMs = n;
  }
  return { listen, upstream, out: parsed.values.get('--out'), analyze: live };
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
  const capture = out === undefined ? undefined : new JsonLinesWriter();
  const analysis = opts.analyze === undefined ? undefined : new LiveAnalysis(opts.analyze.opts);
  // The lines `zkwire decode` prints for a capture of the same traffic, with each connection's open and close.
  const printer = analysis !== undefined ? undefined : new CaptureEventPrinter({ pretty: !io.globals.json, connections: true, redactCredentials: true });
  const onEvent = (ev: CaptureEvent): void => {
    const printed = printer?.format(ev);
    if (printed !== undefined) io.out(`${printed.line}\n`);
    analysis?.event(ev);
    const line = capture?.line(ev);
    if (line !== undefined) out!.write(`${line}\n`);
  };
  using interrupt = onInterrupt('trace', io);
  const stopped = new Promise<void>((resolve) => interrupt.signal.addEventListener('abort', () => resolve(), { once: true }));
  let ticker: ReturnType<typeof setInterval> | undefined;
  try {
    let proxy: TraceProxy;
    try {
      // The upstream side takes the global TLS flags; the client's own SASL login passes through the proxy as is.
      const { tls } = await securityOptions(io.globals.security);
      const upstreamTls = tls === undefined || tls === false ? {} : { upstreamTls: tls };
      proxy = await startTraceProxy({ listen: opts.listen, upstream: opts.upstream, ...upstreamTls, onEvent });
    } catch (e) {
      if (e instanceof ZooKeeperError) {
        io.err(`zkwire trace: ${e.message}\n`);
        return 1;
      }
      io.err(`zkwire trace: cannot listen on ${formatHostPort(opts.listen)}: ${e instanceof Error ? e.message : String(e)}\n`);
      return 1;
    }
    io.err(
      `zkwire trace: listening on ${formatHostPort(proxy)}, forwarding to ${formatHostPort(opts.upstream)}` +
        `${opts.out === undefined ? '' : `, capturing to ${opts.out}`}; Ctrl-C prints the ${analysis === undefined ? 'summary' : 'report'}\n`,
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
    await stopped;
    if (ticker !== undefined) clearInterval(ticker);
    const summary = await interrupt.step('the proxied connections to close', proxy.stop());
    if (analysis === undefined) {
      if (summary.done) io.out(io.globals.json ? `${JSON.stringify({ kind: 'summary', ...summary.value })}\n` : `\n${formatSummaryText(summary.value)}\n`);
      return interrupt.exitCode!;
    }
    const report = analysis.final();
    io.out(io.globals.json ? `${JSON.stringify(report)}\n` : `\n${renderReportText(report)}`);
    const html = opts.analyze!.html;
    if (html !== undefined) {
      const written = await interrupt.step(`${html} to be written`, writeFile(html, renderReportHtml(report, { title: `trace ${formatHostPort(proxy)} → ${formatHostPort(opts.upstream)}` })));
      if (!written.done) {
        io.err(`zkwire trace: cannot write ${html}: ${'error' in written ? (written.error instanceof Error ? written.error.message : String(written.error)) : 'timed out'}\n`);
        return 1;
      }
      io.err(`zkwire trace: report written to ${html}\n`);
    }
    return interrupt.exitCode!;
  } finally {
    if (ticker !== undefined) clearInterval(ticker);
    if (out !== undefined) await interrupt.step(`${opts.out} to be written`, new Promise<void>((resolve) => out!.end(() => resolve())));
  }
}

export const traceCommand: Command = {
  name: 'trace',
  summary: 'decoding proxy: forward a client to a server and print every frame, with a summary on Ctrl-C',
  usage,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseTraceArgs(args);
    if (typeof parsed === 'string') return usageError('trace', parsed, usage, io);
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
