/** `zkwire trace`: the decoding proxy (src/tools/trace) on the command line, until SIGINT, SIGTERM or SIGHUP. */

import fs from 'node:fs';
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
import { onInterrupt } from '../interrupt.js';
import { parseCommandArgs, usageError } from './node-client.js';
import type { CliIo, Command } from '../types.js';

const usage = `Usage: zkwire trace [--listen HOST:PORT] [--upstream HOST:PORT] [--out FILE.jsonl] [--json]

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
                         local ZooKeeper is started for the session and stopped afterwards)
  --out FILE.jsonl       also write every frame's raw bytes as JSON lines {seq, t, ts, conn, dir, len, hex},
                         the \`zkwire decode\` input format: \`zkwire decode --pretty FILE.jsonl\` replays it
  --json                 one JSON object per line (frames with their decoded records, opens, closes, summary)
  --help                 this text
`;

interface TraceArgs {
  listen: HostPort;
  upstream: HostPort | undefined;
  out: string | undefined;
}

function parseTraceArgs(args: readonly string[]): TraceArgs | string {
  const parsed = parseCommandArgs(args, { valued: ['--listen', '--upstream', '--out'], positionals: [], required: 0 });
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
  return { listen, upstream, out: parsed.values.get('--out') };
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
  const onRecord = (rec: TraceRecord): void => {
    io.out(`${io.globals.json ? JSON.stringify(formatRecordJson(rec)) : formatRecordText(rec)}\n`);
    const line = out === undefined ? undefined : capture.line(rec);
    if (line !== undefined) out!.write(`${line}\n`);
  };
  using interrupt = onInterrupt('trace', io);
  const stopped = new Promise<void>((resolve) => interrupt.signal.addEventListener('abort', () => resolve(), { once: true }));
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
        `${opts.out === undefined ? '' : `, capturing to ${opts.out}`}; Ctrl-C prints the summary\n`,
    );
    await stopped;
    const summary = await interrupt.step('the proxied connections to close', proxy.stop());
    if (summary.done) io.out(io.globals.json ? `${JSON.stringify({ event: 'summary', ...summary.value })}\n` : `\n${formatSummaryText(summary.value)}\n`);
    return interrupt.exitCode!;
  } finally {
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
