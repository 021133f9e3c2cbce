/** `zkwire 4lw <cmd>`: ZooKeeper's four-letter admin words, as text or (--json) as data where they are tabular. */

import { FOUR_LETTER_WORDS, isFourLetterWord } from '../../protocol/index.js';
import { parseConnectString } from '../../node.js';
import { DEFAULT_FOUR_LETTER_TIMEOUT_MS, fourLetterWord } from '../../testing/local-server/four-letter-client.js';
import { fourLetterJson, isNotWhitelisted, TABULAR_FOUR_LETTER_WORDS } from '../../tools/four-letter-json.js';
import { withServer } from '../../testing/local-server/with-server.js';
import { adminCommand, adminCommandUrl, adminErrorText, defaultAdminBase, DEFAULT_ADMIN_PORT, type AdminAnswer } from '../../tools/admin-server.js';
import type { CliIo, Command } from '../types.js';
import { integerOption, parseCommandArgs, printError, usageError } from './node-client.js';

const usage = `Usage: zkwire 4lw <command> [--server HOSTS] [--timeout MS] [--admin-url URL] [--json]

Sends a four-letter word to every host of --server (in order) and prints the answer. With no --server, a
throwaway local ZooKeeper is started for the command and stopped afterwards.

Commands: ${FOUR_LETTER_WORDS.join(', ')}
The server must allow them (4lw.commands.whitelist; ZooKeeper 3.5+ allows only srvr by default). A word the
server refuses is asked of its admin HTTP server instead (GET /commands/<word>, JSON; see zkwire admin), and
stderr says so: at --admin-url, else the same host on port ${DEFAULT_ADMIN_PORT}.

Options:
  --json         one JSON line per host: {"server", "command", "answer"}; the answer is structured for
                 ${TABULAR_FOUR_LETTER_WORDS.join(', ')} and {"text"} for the others
  --timeout MS   give up on a host after MS milliseconds (default ${DEFAULT_FOUR_LETTER_TIMEOUT_MS})
  --admin-url U  where the admin server is, for a word the server refuses (default http://HOST:${DEFAULT_ADMIN_PORT})
  --help         this text

Exit status: 0 if every host answered (directly or through its admin server), 1 otherwise (also when a server
does not allow the word and its admin server does not answer), 2 on usage errors.
`;

/** Shared by `4lw` and its `srvr` shorthand; `adminUrl` is where to ask a word the server refuses. */
export async function runFourLetter(command: string, timeoutMs: number, io: CliIo, adminUrl?: string): Promise<number> {
  let failed = 0;
  const ask = async (connectString: string): Promise<void> => {
    const hosts = parseConnectString(connectString).hosts;
    for (const { host, port } of hosts) {
      const server = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
      let text: string;
      try {
        text = await fourLetterWord(host, port, command, timeoutMs);
      } catch (e) {
        failed++;
        const message = e instanceof Error ? e.message : String(e);
        if (io.globals.json) io.out(`${JSON.stringify({ server, command, error: message })}\n`);
        else io.err(`zkwire 4lw: ${server}: ${message}\n`);
        continue;
      }
      if (isNotWhitelisted(text)) {
        const base = adminUrl ?? defaultAdminBase(host);
        let viaAdmin: AdminAnswer | string;
        try {
          viaAdmin = await adminCommand(base, command, AbortSignal.timeout(timeoutMs));
          if (viaAdmin.error !== undefined) viaAdmin = adminErrorText(viaAdmin);
        } catch (e) {
          viaAdmin = e instanceof DOMException && e.name === 'TimeoutError' ? `${adminCommandUrl(base, command)}: no answer within ${timeoutMs} ms` : e instanceof Error ? e.message : String(e);
        }
        if (typeof viaAdmin !== 'string') {
          io.err(`zkwire 4lw: ${server}: ${command} is not in 4lw.commands.whitelist; answered by the admin server at ${viaAdmin.url}\n`);
          if (io.globals.json) io.out(`${JSON.stringify({ server, command, via: 'admin', url: viaAdmin.url, answer: viaAdmin.body })}\n`);
          else {
            if (hosts.length > 1) io.out(`== ${server} ==\n`);
            io.out(`${JSON.stringify(viaAdmin.body, null, 2)}\n`);
          }
          continue;
        }
        failed++;
        const error = `${command} is not allowed by this server (add it to 4lw.commands.whitelist in zoo.cfg), and its admin server did not answer instead: ${viaAdmin}`;
        if (io.globals.json) io.out(`${JSON.stringify({ server, command, error, answer: fourLetterJson(command, text) })}\n`);
        else io.err(`zkwire 4lw: ${server}: ${error}\n`);
        continue;
      }
      if (io.globals.json) io.out(`${JSON.stringify({ server, command, answer: fourLetterJson(command, text) })}\n`);
      else {
        if (hosts.length > 1) io.out(`== ${server} ==\n`);
        io.out(text.endsWith('\n') || text === '' ? text : `${text}\n`);
      }
    }
  };
  try {
    await withServer(io.globals, io, (s) => ask(s.connectString));
  } catch (e) {
    printError(io, '4lw', e);
    return 1;
  }
  return failed === 0 ? 0 : 1;
}

/**
 * Parses the words and --timeout shared by `4lw` and `srvr` (and the `valued` options of the one calling); returns
 * the ms, the words and those options' values, or an error message.
 */
export function parseTimeout(args: string[], words: readonly string[] = [], valued: readonly string[] = []): { timeoutMs: number; rest: string[]; values: ReadonlyMap<string, string> } | string {
  const parsed = parseCommandArgs(args, { valued: ['--timeout', ...valued], positionals: words, required: words.length });
  if (typeof parsed === 'string') return parsed;
  const value = parsed.values.get('--timeout');
  if (value === undefined) return { timeoutMs: DEFAULT_FOUR_LETTER_TIMEOUT_MS, rest: parsed.positionals, values: parsed.values };
  const n = integerOption('--timeout', value, 1);
  return typeof n === 'string' ? n : { timeoutMs: n, rest: parsed.positionals, values: parsed.values };
}

export const fourLetterCommand: Command = {
  name: '4lw',
  summary: 'send a four-letter word (ruok, srvr, stat, mntr, cons, wchs, conf, envi, ...) to each server',
  usage,
  async run(args: string[], io: CliIo): Promise<number> {
    // --admin-url is 4lw's own (srvr never needs it: srvr is always whitelisted).
    const parsed = parseTimeout(args, ['COMMAND'], ['--admin-url']);
    if (typeof parsed === 'string') return usageError('4lw', parsed, usage, io);
    const command = parsed.rest[0]!;
    if (!isFourLetterWord(command)) {
      io.err(`zkwire 4lw: unknown four-letter word ${JSON.stringify(command)}; one of ${FOUR_LETTER_WORDS.join(', ')}\n`);
      return 2;
    }
    return runFourLetter(command, parsed.timeoutMs, io, parsed.values.get('--admin-url'));
  },
};
