/** `zkwire analyze CAPTURE|-`: what happened in a captured ZooKeeper conversation (see src/tools/analyze). */

import { writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { analyzeEvents, renderReportText, TxnLinker, type AnalysisReport, type AnalyzeOptions } from '../../tools/analyze/index.js';
import { damageText, DataFileError, decodeTxnLog } from '../../tools/txnlog/index.js';
import { dataFiles, fileChunks, zxidOfName } from './data-files.js';
import { renderReportHtml } from '../../tools/analyze/render-html.js';
import { CaptureFormatError, DEFAULT_ZOOKEEPER_PORT, readCaptureEvents, type CaptureEvent } from '../../tools/capture/index.js';
import type { CliIo, Command } from '../types.js';
import { integerOption, parseCommandArgs, usageError } from './node-client.js';
import { CaptureWatch, captureName, openCapture } from './capture-input.js';

const usage = `Usage: zkwire analyze [--port P]... [--depth N] [--slow MS] [--max-buffer BYTES] [--data-dir DIR [--path P]] [--json] [--html FILE] CAPTURE | -

Explains what happened in a captured ZooKeeper conversation: per op, path, client and session the request
counts, errors and latency percentiles; every session's timeline across its connections (handshake, timeout,
pings, silences, reconnects, close or expiry, ephemeral nodes); every watch and the notification that fired
it; the locks recognised by their node names (Curator, kazoo, zkwire), who held them when, who waited for
whom, hand-off latency, orphaned nodes and two holders at once; and guardrails (payloads near jute.maxbuffer,
huge children lists, replies out of order, requests after closeSession, unanswered or slow requests).
"-" reads standard input. Captures: pcap or pcapng (tcpdump -w), or JSON lines as written by \`zkwire trace --out\`.

Options:
  --port P            the server's port for packet captures (repeatable); without it, ${DEFAULT_ZOOKEEPER_PORT} and the
                      ports whose connections look like ZooKeeper, named on stderr
  --depth N           path segments kept in the per-path table (default 2)
  --slow MS           report replies slower than this (default 1000)
  --max-buffer BYTES  the server's jute.maxbuffer (default 1048575)
  --data-dir DIR      also read the server's transaction logs (a data directory, or log.<zxid> files;
                      repeatable): every node change made by a session of the capture, with the client
                      address that session used; marked on the HTML session timelines
  --path P            with --data-dir: only changes of P and below, from any session: who created, changed
                      and deleted P, when, and from which client
  --json              the report as one JSON document
  --html FILE         also write the report as one self-contained HTML page
  --help              this text

Exit status: 0 when the capture was analysed; 1 when it could not be read, is empty, corrupt, not a capture or
holds no ZooKeeper frame; 2 on usage errors.
`;

interface AnalyzeArgs {
  file: string;
  html: string | undefined;
  /** Transaction logs to link to the capture's sessions (--data-dir), and the node asked about (--path). */
  dataDirs: string[];
  path: string | undefined;
  /**
   * The server ports, for packet captures (JSON-lines captures say the direction of every frame themselves); empty:
   * found by the frames' shape.
   */
  ports: number[];
  opts: AnalyzeOptions;
}

function parse(args: readonly string[]): AnalyzeArgs | string {
  const parsed = parseCommandArgs(args, { valued: ['--port', '--depth', '--slow', '--max-buffer', '--html', '--data-dir', '--path'], positionals: ['CAPTURE'], required: 0 });
  if (typeof parsed === 'string') return parsed;
  const opts: AnalyzeOptions = {};
  const ports: number[] = [];
  for (const v of parsed.repeated.get('--port') ?? []) {
    const n = integerOption('--port', v, 1);
    if (typeof n === 'string') return n;
    if (n > 65535) return `--port must be at most 65535, got ${v}`;
    ports.push(n);
  }
  for (const [name, min] of [['--depth', 1], ['--slow', 0], ['--max-buffer', 1]] as const) {
    const v = parsed.values.get(name);
    if (v === undefined) continue;
    const n = integerOption(name, v, min);
    if (typeof n === 'string') return n;
    if (name === '--depth') opts.depth = n;
    else if (name === '--slow') opts.slowMs = n;
    else opts.maxBuffer = n;
  }
  const dataDirs = [...(parsed.repeated.get('--data-dir') ?? [])];
  let path = parsed.values.get('--path');
  if (path !== undefined) {
    if (dataDirs.length === 0) return '--path needs --data-dir (the transaction logs say who changed a node)';
    if (!path.startsWith('/')) return `--path needs an absolute path, got ${path}`;
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  }
  const file = parsed.positionals[0];
  if (file === undefined) return 'give a CAPTURE file or - for standard input';
  return { file, html: parsed.values.get('--html'), dataDirs, path, ports, opts };
}

export const analyzeCommand: Command = {
  name: 'analyze',
  summary: 'explain a captured conversation: ops and latency, sessions, watches, locks, guardrails (--html for a page)',
  usage,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parse(args);
    if (typeof parsed === 'string') return usageError('analyze', parsed, usage, io);
    const name = captureName(parsed.file);
    const source = await openCapture(parsed.file, io);
    if (typeof source === 'string') {
      io.err(`zkwire analyze: ${source}\n`);
      return 1;
    }
    const watch = new CaptureWatch(io, 'analyze', name, { portsGiven: parsed.ports.length > 0, live: false });
    let report;
    try {
      // A JSON-lines capture with a line that is no frame is refused whole: an analysis of part of it would mislead.
      const events = readCaptureEvents(source, { ports: parsed.ports, strictLines: true, onNote: (n) => io.err(`zkwire analyze: ${name}: ${n}\n`) });
      report = await analyzeEvents(watched(events, watch), parsed.opts);
    } catch (e) {
      if (e instanceof CaptureFormatError) {
        io.err(`zkwire analyze: ${name}: ${e.message}\n`);
        return 1;
      }
      throw e;
    }
    if (!watch.finish()) return 1;
    if (parsed.dataDirs.length > 0) {
      const linked = await linkDataDirs(report, parsed, io);
      if (linked === undefined) return 1;
      report = linked;
    }
    io.out(io.globals.json ? `${JSON.stringify(report, null, 2)}\n` : renderReportText(report));
    if (parsed.html !== undefined) {
      try {
        await writeFile(parsed.html, renderReportHtml(report, { title: name }));
      } catch (e) {
        io.err(`zkwire analyze: cannot write ${parsed.html}: ${e instanceof Error ? e.message : String(e)}\n`);
        return 1;
      }
      io.err(`zkwire analyze: report written to ${parsed.html}\n`);
    }
    return 0;
  },
};

/**
 * Reads the transaction logs of --data-dir (as `zkwire txnlog` does) into the report's `transactions`. Damage is
 * reported and skipped as there; undefined (exit 1) when no log could be read at all.
 */
async function linkDataDirs(report: AnalysisReport, args: AnalyzeArgs, io: CliIo): Promise<AnalysisReport | undefined> {
  const linker = new TxnLinker(report.sessions, report.startUs, { source: args.dataDirs.join(', '), ...(args.path === undefined ? {} : { path: args.path }) });
  // All the logs in zxid order (their names), whichever directory they are in, so the linker sees each zxid once.
  const files: { file: string; zxid: bigint }[] = [];
  for (const dir of args.dataDirs) {
    const found = await dataFiles(dir, 'log');
    if (typeof found === 'string') io.err(`zkwire analyze: --data-dir ${found}\n`);
    else for (const file of found) files.push({ file, zxid: zxidOfName(basename(file), 'log') ?? 0n });
  }
  files.sort((a, b) => (a.zxid < b.zxid ? -1 : a.zxid > b.zxid ? 1 : 0));
  let read = 0;
  for (const { file } of files) {
    try {
      for await (const batch of decodeTxnLog(fileChunks(file))) {
        for (const e of batch) {
          if (e.type === 'txn') linker.add(e.entry);
          else if (e.type === 'damage') io.err(`zkwire analyze: ${file}: ${damageText(e)}\n`);
        }
      }
      read++;
    } catch (err) {
      io.err(`zkwire analyze: ${file}: ${err instanceof DataFileError ? err.message : `cannot read: ${err instanceof Error ? err.message : String(err)}`}\n`);
    }
  }
  if (read === 0) {
    io.err('zkwire analyze: no transaction log could be read from --data-dir\n');
    return undefined;
  }
  return { ...report, transactions: linker.report() };
}

async function* watched(events: AsyncIterable<CaptureEvent>, watch: CaptureWatch): AsyncGenerator<CaptureEvent> {
  for await (const e of events) {
    watch.see(e);
    yield e;
  }
}
