/** `zkwire analyze CAPTURE|-`: what happened in a captured ZooKeeper conversation (see src/tools/analyze). */

import { createReadStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { analyzeEvents, CaptureLineError, jsonlCaptureEvents, renderReportText, type AnalyzeOptions } from '../../tools/analyze/index.js';
import { renderReportHtml } from '../../tools/analyze/render-html.js';
import type { CliIo, Command } from '../types.js';

const usage = `Usage: zkwire analyze [--port P]... [--depth N] [--slow MS] [--max-buffer BYTES] [--json] [--html FILE] CAPTURE | -

Explains what happened in a captured ZooKeeper conversation: per op, path, client and session the request
counts, errors and latency percentiles; every session's timeline across its connections (handshake, timeout,
pings, silences, reconnects, close or expiry, ephemeral nodes); every watch and the notification that fired
it; the locks recognised by their node names (Curator, kazoo, zkwire), who held them when, who waited for
whom, hand-off latency, orphaned nodes and two holders at once; and guardrails (payloads near jute.maxbuffer,
huge children lists, replies out of order, requests after closeSession, unanswered or slow requests).
"-" reads standard input. Captures: JSON lines as written by \`zkwire trace --out\`.

Options:
  --port P            the server's port (repeatable; default 2181) for packet captures
  --depth N           path segments kept in the per-path table (default 2)
  --slow MS           report replies slower than this (default 1000)
  --max-buffer BYTES  the server's jute.maxbuffer (default 1048575)
  --json              the report as one JSON document
  --html FILE         also write the report as one self-contained HTML page
  --help              this text

Exit status: 0 when the capture was analysed, 1 when it could not be read, 2 on usage errors.
`;

interface AnalyzeArgs {
  file: string;
  html: string | undefined;
  /** The server ports, for packet captures (JSON-lines captures say the direction of every frame themselves). */
  ports: number[];
  opts: AnalyzeOptions;
}

function positiveInt(name: string, v: string, min: number): number | string {
  const n = Number(v);
  return Number.isInteger(n) && n >= min ? n : `${name} must be an integer ≥ ${min}, got ${JSON.stringify(v)}`;
}

function parse(args: readonly string[]): AnalyzeArgs | string {
  const opts: AnalyzeOptions = {};
  const ports: number[] = [];
  let html: string | undefined;
  let file: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-' || !a.startsWith('-')) {
      if (file !== undefined) return `one CAPTURE at a time (got ${file} and ${a})`;
      file = a;
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    if (!['--port', '--depth', '--slow', '--max-buffer', '--html'].includes(name)) return `unknown option ${a}`;
    const value = eq > 0 ? a.slice(eq + 1) : args[++i];
    if (value === undefined) return `${name} needs a value`;
    let n: number | string = 0;
    if (name === '--html') html = value;
    else if (name === '--port') {
      n = positiveInt(name, value, 1);
      if (typeof n === 'number' && n > 65535) n = `--port must be at most 65535, got ${value}`;
      if (typeof n === 'number') ports.push(n);
    } else if (name === '--depth') {
      n = positiveInt(name, value, 1);
      if (typeof n === 'number') opts.depth = n;
    } else if (name === '--slow') {
      n = positiveInt(name, value, 0);
      if (typeof n === 'number') opts.slowMs = n;
    } else {
      n = positiveInt(name, value, 1);
      if (typeof n === 'number') opts.maxBuffer = n;
    }
    if (typeof n === 'string') return n;
  }
  if (file === undefined) return 'give a CAPTURE file or - for standard input';
  return { file, html, ports: ports.length === 0 ? [2181] : ports, opts };
}

async function* linesOf(source: AsyncIterable<string | Uint8Array> | NodeJS.ReadableStream): AsyncGenerator<string> {
  const input = source instanceof Readable ? source : Readable.from(source as AsyncIterable<string | Uint8Array>);
  yield* createInterface({ input, crlfDelay: Infinity });
}

async function open(file: string, io: CliIo): Promise<AsyncIterable<string | Uint8Array> | NodeJS.ReadableStream | Error> {
  if (file === '-') return io.stdin;
  const stream = createReadStream(file);
  const failed = await new Promise<Error | undefined>((resolve) => {
    stream.once('open', () => resolve(undefined));
    stream.once('error', (e) => resolve(e));
  });
  return failed ?? stream;
}

export const analyzeCommand: Command = {
  name: 'analyze',
  summary: 'explain a captured conversation: ops and latency, sessions, watches, locks, guardrails (--html for a page)',
  usage,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parse(args);
    if (typeof parsed === 'string') {
      io.err(`zkwire analyze: ${parsed}\n\n${usage}`);
      return 2;
    }
    const source = await open(parsed.file, io);
    if (source instanceof Error) {
      io.err(`zkwire analyze: cannot read ${parsed.file}: ${source.message}\n`);
      return 1;
    }
    let report;
    try {
      report = await analyzeEvents(jsonlCaptureEvents(linesOf(source)), parsed.opts);
    } catch (e) {
      if (e instanceof CaptureLineError) {
        io.err(`zkwire analyze: ${parsed.file === '-' ? 'standard input' : parsed.file}: ${e.message}\n`);
        return 1;
      }
      throw e;
    }
    io.out(io.globals.json ? `${JSON.stringify(report, null, 2)}\n` : renderReportText(report));
    if (parsed.html !== undefined) {
      try {
        await writeFile(parsed.html, renderReportHtml(report, { title: parsed.file === '-' ? 'standard input' : parsed.file }));
      } catch (e) {
        io.err(`zkwire analyze: cannot write ${parsed.html}: ${e instanceof Error ? e.message : String(e)}\n`);
        return 1;
      }
      io.err(`zkwire analyze: report written to ${parsed.html}\n`);
    }
    return 0;
  },
};
