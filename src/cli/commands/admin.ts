/**
 * `zkwire admin COMMAND`: one command of ZooKeeper's admin HTTP server (src/tools/admin-server.ts), for each
 * server of --server (same host, port 8080) or at --url. The answer is printed as the server sent it, indented.
 */

import { parseConnectString } from '../../node.js';
import { adminCommand, adminErrorText, defaultAdminBase, DEFAULT_ADMIN_PORT } from '../../tools/admin-server.js';
import { commandInterrupt } from '../interrupt.js';
import type { CliIo, Command } from '../types.js';
import { type ArgSpec, integerOption, parseCommandArgs, printError, usageError } from './node-client.js';

const DEFAULT_TIMEOUT_MS = 5000;

const usage = `Usage: zkwire admin COMMAND [--url URL] [--server HOSTS] [--timeout MS] [--json]

Runs COMMAND on ZooKeeper's admin HTTP server (GET /commands/COMMAND; JSON) and prints the answer. Commands
include monitor (mntr), server_stats (srvr), stats, connections (cons), leader (lead), voting_view,
configuration (conf), environment (envi), watch_summary (wchs), is_read_only (isro), ruok, dump,
last_snapshot, observers, zabstate; the four-letter names work too, whatever 4lw.commands.whitelist says.
The server must run it: admin.enableServer=true (ZooKeeper's default), admin.serverPort (default ${DEFAULT_ADMIN_PORT}).

  --url URL      the admin server, e.g. http://zk1:8080 (or .../commands); default: each host of the
                 connect string on port ${DEFAULT_ADMIN_PORT}
  --timeout MS   give up on a server after MS milliseconds (default ${DEFAULT_TIMEOUT_MS})
  --json         one line per server: {"url", "command", "answer"}

Exit status: 0 every server answered, 1 otherwise (unreachable, or the server's answer has an "error"), 2 usage
error.
`;

const spec: ArgSpec = { valued: ['--url', '--timeout'], positionals: ['COMMAND'], required: 1 };

/** The admin bases to ask: --url, else each host of --server on the default admin port. */
export function adminBases(url: string | undefined, server: string | undefined): string[] | undefined {
  if (url !== undefined) return [url];
  if (server === undefined) return undefined;
  return parseConnectString(server).hosts.map((h) => defaultAdminBase(h.host));
}

/** Asks each base for `name`; prints each answer or failure; returns how many failed. */
export async function askAdmin(command: string, bases: readonly string[], name: string, timeoutMs: number, io: CliIo, signal: AbortSignal): Promise<number> {
  let failed = 0;
  for (const base of bases) {
    try {
      const answer = await adminCommand(base, name, AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]));
      if (answer.error !== undefined) failed++;
      if (io.globals.json) io.out(`${JSON.stringify({ url: answer.url, command: name, answer: answer.body })}\n`);
      else {
        if (bases.length > 1) io.out(`== ${answer.url} ==\n`);
        io.out(`${JSON.stringify(answer.body, null, 2)}\n`);
      }
      if (answer.error !== undefined) io.err(`zkwire ${command}: ${adminErrorText(answer)}\n`);
    } catch (e) {
      if (signal.aborted) throw e;
      failed++;
      const timedOut = e instanceof DOMException && e.name === 'TimeoutError';
      printError(io, command, timedOut ? new Error(`${base}: no answer within ${timeoutMs} ms`) : e);
    }
  }
  return failed;
}

export const adminServerCommand: Command = {
  name: 'admin',
  summary: "run a command of ZooKeeper's admin HTTP server (monitor, leader, voting_view, ...)",
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('admin', parsed, usage, io);
    const t = parsed.values.get('--timeout');
    const timeoutMs = t === undefined ? DEFAULT_TIMEOUT_MS : integerOption('--timeout', t, 1);
    if (typeof timeoutMs === 'string') return usageError('admin', timeoutMs, usage, io);
    let bases: string[] | undefined;
    try {
      bases = adminBases(parsed.values.get('--url'), io.globals.server);
    } catch (e) {
      return usageError('admin', e instanceof Error ? e.message : String(e), usage, io);
    }
    if (bases === undefined) return usageError('admin', 'give --url URL or --server HOSTS (a throwaway local server runs no admin server)', usage, io);
    using interrupt = commandInterrupt('admin', io);
    try {
      return (await askAdmin('admin', bases, parsed.positionals[0]!, timeoutMs, io, interrupt.signal)) === 0 ? 0 : 1;
    } catch (e) {
      if (interrupt.exitCode !== undefined) return interrupt.exitCode;
      printError(io, 'admin', e);
      return 1;
    }
  },
};
