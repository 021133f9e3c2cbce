/**
 * Global flag parsing with node:util's parseArgs. Global flags may come before or after the command name; what
 * is not a global flag is handed to the command as written (its own options, their values, its positionals),
 * in order. `--` ends option parsing: it is passed on, and everything after it is the command's data even when
 * it starts with `-` (e.g. `zkwire set /n -- --not-an-option`).
 */

import { parseArgs as parseNodeArgs } from 'node:util';
import type { GlobalOptions, SecurityFlags } from './types.js';

/** The global flags, the command name and the command's own arguments (in order), or the first problem. */
export interface ParsedArgs {
  globals: GlobalOptions;
  help: boolean;
  /** --version was given. */
  version: boolean;
  command: string | undefined;
  rest: string[];
  error?: string;
}

const GLOBAL_OPTIONS = {
  server: { type: 'string' },
  'session-timeout': { type: 'string' },
  'connect-timeout': { type: 'string' },
  'max-frame-size': { type: 'string' },
  auth: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  tls: { type: 'boolean' },
  'tls-ca': { type: 'string' },
  'tls-cert': { type: 'string' },
  'tls-key': { type: 'string' },
  sasl: { type: 'string' },
  'sasl-password-file': { type: 'string' },
  principal: { type: 'string' },
  keytab: { type: 'string' },
  config: { type: 'string' },
} as const;

/** The security flags and the SecurityFlags field each sets. */
const SECURITY_FLAGS = {
  'tls-ca': 'tlsCa',
  'tls-cert': 'tlsCert',
  'tls-key': 'tlsKey',
  sasl: 'sasl',
  'sasl-password-file': 'saslPasswordFile',
  principal: 'principal',
  keytab: 'keytab',
  config: 'config',
} as const satisfies Partial<Record<GlobalName, keyof SecurityFlags>>;

type GlobalName = keyof typeof GLOBAL_OPTIONS;
const isGlobal = (name: string): name is GlobalName => Object.hasOwn(GLOBAL_OPTIONS, name);

/** A positive integer of milliseconds or bytes, or the reason it is not one. */
function positive(flag: string, value: string, unit: string): number | string {
  const n = Number(value);
  return /^\d+$/.test(value) && Number.isSafeInteger(n) && n > 0 ? n : `${flag} must be a positive integer (${unit}), got ${value}`;
}

/** `scheme:credentials` (the credentials may contain ':'), or the reason it is not. */
function authEntry(value: string): { scheme: string; auth: string } | string {
  const i = value.indexOf(':');
  if (i <= 0) return `--auth needs scheme:credentials (e.g. digest:user:password), got ${JSON.stringify(value)}`;
  return { scheme: value.slice(0, i), auth: value.slice(i + 1) };
}

/** Splits argv into the global flags and the command's arguments (see the file comment). */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const out: ParsedArgs = { globals: { json: false }, help: false, version: false, command: undefined, rest: [] };
  const fail = (problem: string): void => void (out.error ??= problem);
  const { tokens } = parseNodeArgs({ args: [...argv], options: GLOBAL_OPTIONS, strict: false, allowPositionals: true, tokens: true });
  let lastIndex = -1; // grouped short flags (-rR) are several tokens of one argument
  let terminated = false;
  for (const t of tokens) {
    if (t.kind === 'option-terminator') {
      terminated = true;
      out.rest.push('--');
      continue;
    }
    if (t.kind === 'positional') {
      if (out.command === undefined && !terminated) out.command = t.value;
      else out.rest.push(t.value);
      continue;
    }
    // `--json=FILE` is bench's own option (a file for the figures); only the bare --json is the global flag.
    if (!isGlobal(t.name) || (t.name === 'json' && t.value !== undefined)) {
      // The command's own option: passed on exactly as written (with an inline =value, if any).
      if (t.index !== lastIndex) out.rest.push(argv[t.index]!);
      lastIndex = t.index;
      continue;
    }
    const flag = t.rawName;
    const type = GLOBAL_OPTIONS[t.name].type;
    if (type === 'string' && t.value === undefined) {
      fail(`${flag} needs a value`);
      continue;
    }
    const value = t.value ?? '';
    switch (t.name) {
      case 'server':
        out.globals.server = value;
        break;
      case 'session-timeout':
      case 'connect-timeout':
      case 'max-frame-size': {
        const n = positive(flag, value, t.name === 'max-frame-size' ? 'bytes' : 'ms');
        if (typeof n === 'string') fail(n);
        else if (t.name === 'session-timeout') out.globals.sessionTimeout = n;
        else if (t.name === 'connect-timeout') out.globals.connectTimeout = n;
        else out.globals.maxFrameSize = n;
        break;
      }
      case 'auth': {
        const entry = authEntry(value);
        if (typeof entry === 'string') fail(entry);
        else (out.globals.auth ??= []).push(entry);
        break;
      }
      case 'json':
        out.globals.json = true;
        break;
      case 'tls':
        (out.globals.security ??= {}).tls = true;
        break;
      case 'tls-ca':
      case 'tls-cert':
      case 'tls-key':
      case 'sasl':
      case 'sasl-password-file':
      case 'principal':
      case 'keytab':
      case 'config':
        (out.globals.security ??= {})[SECURITY_FLAGS[t.name]] = value;
        break;
      case 'help':
        out.help = true;
        break;
    }
  }
  // `--version` is zkwire's own only without a command: set and rm have a --version option of their own.
  if (out.command === undefined && out.rest.includes('--version')) {
    out.version = true;
    out.rest = out.rest.filter((a) => a !== '--version');
  }
  return out;
}
