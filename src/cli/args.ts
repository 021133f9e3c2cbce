/** Global flag parsing: flags may come before or after the command name. */

import type { GlobalOptions } from './types.js';

export interface ParsedArgs {
  globals: GlobalOptions;
  help: boolean;
  command: string | undefined;
  rest: string[];
  error?: string;
}

const WITH_VALUE = new Set(['--server', '--session-timeout']);

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const out: ParsedArgs = { globals: { json: false }, help: false, command: undefined, rest: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      out.rest.push(...argv.slice(i + 1));
      break;
    }
    const eq = a.indexOf('=');
    const name = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    if (WITH_VALUE.has(name)) {
      const value = eq > 0 && name !== a ? a.slice(eq + 1) : argv[++i];
      if (value === undefined) {
        out.error = `${name} needs a value`;
        continue;
      }
      if (name === '--server') out.globals.server = value;
      else {
        const ms = Number(value);
        if (!Number.isInteger(ms) || ms <= 0) out.error = `--session-timeout must be a positive integer (ms), got ${value}`;
        else out.globals.sessionTimeout = ms;
      }
    } else if (a === '--json') out.globals.json = true;
    else if (a === '--help' || a === '-h') out.help = true;
    else if (out.command === undefined && !a.startsWith('-')) out.command = a;
    else out.rest.push(a);
  }
  return out;
}
