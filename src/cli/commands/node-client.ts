/**
 * What the node commands (ls, get, set, create, rm, stat, watch, whoami) share: their small option parser, running
 * with a connected client (on --server or a throwaway local server), the one error format, and how a Stat and node
 * data look as text and as JSON.
 */

import { readFile } from 'node:fs/promises';
import { parseArgs as parseNodeArgs } from 'node:util';
import { toJsonValue } from '../../protocol/describe.js';
import { hexDecode, hexEncode } from '../../protocol/hex.js';
import { isValidUtf8, utf8Decode } from '../../protocol/utf8.js';
import { ZooKeeperError, type Stat, type ZooKeeperClient } from '../../node.js';
import { connectForCli } from '../connect.js';
import { shellUsageLine } from '../shell/usage.js';
import { withServer } from '../../testing/local-server/with-server.js';
import type { Interrupt } from '../interrupt.js';
import type { ArgSpec, CliIo } from '../types.js';
import { safeText } from '../../tools/shared/safe-text.js';

// ---- arguments ------------------------------------------------------------------------------------------

export type { ArgSpec } from '../types.js';

export interface ParsedCommandArgs {
  readonly positionals: string[];
  readonly flags: ReadonlySet<string>;
  /** The last value of each valued option. */
  readonly values: ReadonlyMap<string, string>;
  /** Every value of each valued option, in order (for repeatable options such as `--port`). */
  readonly repeated: ReadonlyMap<string, readonly string[]>;
}

/** node:util parseArgs option config for a spec: `--name` as itself, a one-letter `-x` as its short form. */
function optionConfig(spec: ArgSpec): Record<string, { type: 'string' | 'boolean'; short?: string }> {
  const config: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  const add = (option: string, type: 'string' | 'boolean'): void => {
    if (option.startsWith('--')) config[option.slice(2)] = { type };
    else config[`-${option.slice(1)}`] = { type, short: option.slice(1) };
  };
  for (const f of spec.flags ?? []) add(f, 'boolean');
  for (const v of spec.valued ?? []) add(v, 'string');
  return config;
}

/**
 * Parses a command's own arguments (the globals are gone by now) with node:util's parseArgs. `--` ends the
 * options: everything after it is positional, so data may start with `-` (`set /n -- --x`). Before it, a negative
 * number (`set /n -1`) is taken as data, and anything else starting with `-` must be a known option.
 */
export function parseCommandArgs(args: readonly string[], spec: ArgSpec): ParsedCommandArgs | string {
  const positionals: string[] = [];
  const flags = new Set<string>();
  const values = new Map<string, string>();
  const repeated = new Map<string, string[]>();
  const config = optionConfig(spec);
  const { tokens } = parseNodeArgs({ args: [...args], options: config, strict: false, allowPositionals: true, tokens: true });
  let lastIndex = -1; // grouped short options (-12) are several tokens of one argument
  const positional = (a: string): string | undefined => {
    if (positionals.length >= spec.positionals.length && spec.variadic !== true) return `unexpected argument ${a}`;
    positionals.push(a);
    return undefined;
  };
  for (const t of tokens) {
    if (t.kind === 'option-terminator') continue;
    if (t.kind === 'positional') {
      const problem = positional(t.value);
      if (problem !== undefined) return problem;
      continue;
    }
    const raw = args[t.index]!;
    const known = config[t.name];
    if (known === undefined) {
      if (!/^-\d/.test(raw)) return `unknown option ${t.rawName}`;
      if (t.index !== lastIndex) {
        const problem = positional(raw); // a negative number is data
        if (problem !== undefined) return problem;
      }
      lastIndex = t.index;
      continue;
    }
    if (known.type === 'string') {
      if (t.value === undefined) return `${t.rawName} needs a value`;
      values.set(t.rawName, t.value);
      repeated.set(t.rawName, [...(repeated.get(t.rawName) ?? []), t.value]);
    } else flags.add(t.rawName);
  }
  if (positionals.length < spec.required) return `give ${spec.positionals.slice(positionals.length, spec.required).join(' ')}`;
  return { positionals, flags, values, repeated };
}

/** A non-negative integer option value, or the usage message saying why not. */
export function integerOption(name: string, value: string, min: number): number | string {
  const n = Number(value);
  return /^-?\d+$/.test(value) && Number.isSafeInteger(n) && n >= min ? n : `${name} needs an integer ≥ ${min}, got ${value}`;
}

export function usageError(command: string, problem: string, usage: string, io: CliIo): number {
  if (io.globals.json) io.err(`${JSON.stringify({ error: { code: 'USAGE', message: `zkwire ${command}: ${problem}` } })}\n`);
  // Inside the shell: the usage line as typed there (no --server, no throwaway server), the rest on "help CMD".
  else if (io.session !== undefined) io.err(`zkwire ${command}: ${problem}\n${shellUsageLine(usage)}\n("help ${command}" for more)\n`);
  else io.err(`zkwire ${command}: ${problem}\n\n${usage}`);
  return 2;
}

// ---- errors ---------------------------------------------------------------------------------------------

/**
 * `CODE: detail`. Client messages already read `CODE (op path): detail`; the code is not repeated and the
 * parentheses go, so the line reads e.g. `NONODE: getData /missing`.
 */
export function describeError(e: unknown): string {
  if (!(e instanceof ZooKeeperError)) return e instanceof Error ? e.message : String(e);
  const m = /^(\S+)(?: \((.*?)\))?(?:: ([\s\S]*))?$/.exec(e.message);
  if (m === null || m[1] !== e.code) return `${e.code}: ${e.message}`;
  const parts = [m[2], m[3]].filter((p): p is string => p !== undefined && p !== '');
  return parts.length === 0 ? e.code : `${e.code}: ${parts.join(': ')}`;
}

/**
 * Reports a failure of `command` on stderr: `zkwire CMD: CODE: detail` as text, or with --json one line
 * `{"error":{"code","message"}}` (the code a ZooKeeperError's, else ERROR) so scripts parse failures too.
 */
export function printError(io: CliIo, command: string, e: unknown, context?: string): void {
  const where = context === undefined ? '' : `${context}: `;
  if (io.globals.json) {
    const code = e instanceof ZooKeeperError ? e.code : 'ERROR';
    const message = e instanceof Error ? e.message : String(e);
    io.err(`${JSON.stringify({ error: { code, message: `${where}${message}` } })}\n`);
  } else io.err(`zkwire ${command}: ${safeText(`${where}${describeError(e)}`)}\n`); // a path may hold control characters
}

// ---- running with a client ------------------------------------------------------------------------------

export interface RunOptions {
  /**
   * The command's interrupt (watch takes SIGINT/SIGTERM/SIGHUP): it cancels connecting, and an error after it
   * (e.g. ABORTED while connecting) is the interrupt doing its job, so the exit status is 128 + the signal.
   */
  readonly interrupt?: Interrupt;
}

/** The exit status of a command the shell's user cancelled (Ctrl-C): 128 + SIGINT, as when the CLI is interrupted. */
export const CANCELLED_EXIT = 130;

/**
 * Runs `fn` with a client and the signal that cancels the command. From the CLI: connects (to --server, or a
 * throwaway local server started for this command), runs `fn`, closes the client. In the shell: runs `fn` on the
 * shell's session, which stays open, and `signal` is the user's Ctrl-C. Any error — connecting, the operation,
 * the local server — is printed as `zkwire CMD: CODE: detail`, exit 1; one caused by cancelling is not printed.
 */
export async function runWithClient(
  command: string,
  io: CliIo,
  fn: (client: ZooKeeperClient, signal: AbortSignal) => Promise<number>,
  opts: RunOptions = {},
): Promise<number> {
  const shared = io.session;
  if (shared !== undefined) {
    try {
      return await fn(shared.client, shared.signal);
    } catch (e) {
      if (shared.signal.aborted) return CANCELLED_EXIT;
      printError(io, command, e);
      return 1;
    }
  }
  const signal = opts.interrupt?.signal ?? new AbortController().signal;
  try {
    return await withServer(io.globals, io, async ({ connectString }) => {
      const client = await connectForCli(command, connectString, io, opts.interrupt?.signal);
      try {
        return await fn(client, signal);
      } finally {
        await (opts.interrupt?.step('the session to close', client.close()) ?? client.close());
      }
    });
  } catch (e) {
    if (opts.interrupt?.exitCode !== undefined) return opts.interrupt.exitCode;
    printError(io, command, e);
    return 1;
  }
}

/** Prints one JSON line with --json, else the text (a trailing newline is added to both). */
export function print(io: CliIo, json: unknown, text: () => string): void {
  io.out(io.globals.json ? `${JSON.stringify(json)}\n` : `${text()}\n`);
}

// ---- Stat and data --------------------------------------------------------------------------------------

/** The Stat as JSON: 64-bit fields as decimal strings (JSON numbers lose precision past 2^53). */
export interface StatJson {
  czxid: string;
  mzxid: string;
  ctime: string;
  mtime: string;
  version: number;
  cversion: number;
  aversion: number;
  ephemeralOwner: string;
  dataLength: number;
  numChildren: number;
  pzxid: string;
}

/** The Stat as JSON the way every zkwire tool shows records: longs as decimal strings, ints as numbers. */
export function statToJson(s: Stat): StatJson {
  return toJsonValue(s) as unknown as StatJson;
}

const hex = (n: bigint): string => `0x${BigInt.asUintN(64, n).toString(16)}`;

function time(ms: bigint): string {
  const d = new Date(Number(ms));
  return Number.isNaN(d.getTime()) ? ms.toString() : `${d.toISOString()} (${ms})`;
}

/** The Stat as `name = value` lines, zxids and the owning session id in hex as ZooKeeper's own tools show them. */
export function statToText(s: Stat): string {
  const rows: [string, string][] = [
    ['czxid', hex(s.czxid)],
    ['ctime', time(s.ctime)],
    ['mzxid', hex(s.mzxid)],
    ['mtime', time(s.mtime)],
    ['pzxid', hex(s.pzxid)],
    ['cversion', String(s.cversion)],
    ['version', String(s.version)],
    ['aversion', String(s.aversion)],
    ['ephemeralOwner', hex(s.ephemeralOwner)],
    ['dataLength', String(s.dataLength)],
    ['numChildren', String(s.numChildren)],
  ];
  return rows.map(([k, v]) => `${k.padEnd(14)} = ${v}`).join('\n');
}

// ---- node data in ------------------------------------------------------------------------------------------

/** Hex text (whitespace and an optional 0x ignored) as bytes, or the reason it is not hex. */
function fromHex(text: string): Uint8Array | string {
  return hexDecode(text.replace(/\s+/g, '').replace(/^0x/i, '')) ?? 'the data is not hex (pairs of 0-9a-f)';
}

async function readAll(source: AsyncIterable<string | Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const c of source) chunks.push(typeof c === 'string' ? new TextEncoder().encode(c) : c);
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Where a command's node data comes from: the DATA argument, `-` (standard input), or --file. */
export interface DataSource {
  readonly arg: string | undefined;
  readonly file: string | undefined;
  /** --hex: the data is given as hex text. */
  readonly hex: boolean;
}

/**
 * The node data as bytes, exactly: the argument as UTF-8, or standard input / the file byte for byte (no newline
 * stripped), each decoded from hex with --hex. undefined when none was given; a string is a usage problem.
 */
export async function readNodeData(src: DataSource, io: CliIo): Promise<Uint8Array | undefined | string> {
  if (src.arg !== undefined && src.file !== undefined) return 'give DATA or --file, not both';
  let bytes: Uint8Array;
  if (src.file !== undefined) {
    try {
      bytes = new Uint8Array(await readFile(src.file));
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ENOENT' ? `--file ${src.file}: no such file` : `--file ${src.file}: ${(e as Error).message}`;
    }
  } else if (src.arg === '-') bytes = await readAll(io.stdin);
  else if (src.arg !== undefined) bytes = new TextEncoder().encode(src.arg);
  else return src.hex ? '--hex needs DATA, - or --file' : undefined;
  return src.hex ? fromHex(new TextDecoder().decode(bytes)) : bytes;
}

export interface DataJson {
  /** The data as text (`encoding: "utf8"`) or as lower-case hex (`encoding: "hex"`) when it is not valid UTF-8. */
  data: string;
  encoding: 'utf8' | 'hex';
}

export function dataToJson(bytes: Uint8Array, forceHex = false): DataJson {
  if (!forceHex && isValidUtf8(bytes)) return { data: utf8Decode(bytes), encoding: 'utf8' };
  return { data: hexEncode(bytes), encoding: 'hex' };
}
