/** `zkwire 4lw <cmd>`: ZooKeeper's four-letter admin words, as text or (--json) as data where they are tabular. */

import { FOUR_LETTER_WORDS, isFourLetterWord } from '../../protocol/index.js';
import { parseConnectString } from '../../node.js';
import { DEFAULT_FOUR_LETTER_TIMEOUT_MS, fourLetterWord } from '../../testing/local-server/four-letter-client.js';
import { fourLetterJson, isNotWhitelisted, TABULAR_FOUR_LETTER_WORDS } from '../../tools/four-letter-json.js';
import { withServer } from '../../testing/local-server/with-server.js';
import type { CliIo, Command } from '../types.js';
import { integerOption, parseCommandArgs, printError, usageError } from './node-client.js';

const usage = `Usage: zkwire 4lw <command> [--server HOSTS] [--timeout MS] [--json]

Sends a four-letter word to every host of --server (in order) and prints the answer. With no --server, a
throwaway local ZooKeeper is started for the command and stopped afterwards.

Commands: ${FOUR_LETTER_WORDS.join(', ')}
The server must allow them (4lw.commands.whitelist; ZooKeeper 3.5+ allows only srvr by default).

Options:
  --json         one JSON line per host: {"server", "command", "answer"}; the answer is structured for
                 ${TABULAR_FOUR_LETTER_WORDS.join(', ')} and {"text"} for the others
  --timeout MS   give up on a host after MS milliseconds (default ${DEFAULT_FOUR_LETTER_TIMEOUT_MS})
  --help         this text

Exit status: 0 if every host answered, 1 otherwise (also when a server does not allow the word), 2 on usage
errors.
`;

/** Shared by `4lw` and its `srvr` shorthand. */
export async function runFourLetter(command: string, timeoutMs: number, io: CliIo): Promise<number> {
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
        failed++;
        const error = `${command} is not allowed by this server (add it to 4lw.commands.whitelist in zoo.cfg)`;
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

/** Parses the words and --timeout shared by `4lw` and `srvr`; returns the ms and the words, or an error message. */
export function parseTimeout(args: string[], words: readonly string[] = []): { timeoutMs: number; rest: string[] } | string {
  const parsed = parseCommandArgs(args, { valued: ['--timeout'], positionals: words, required: words.length });
  if (typeof parsed === 'string') return parsed;
  const value = parsed.values.get('--timeout');
  if (value === undefined) return { timeoutMs: DEFAULT_FOUR_LETTER_TIMEOUT_MS, rest: parsed.positionals };
  const n = integerOption('--timeout', value, 1);
  return typeof n === 'string' ? n : { timeoutMs: n, rest: parsed.positionals };
}

export const fourLetterCommand: Command = {
  name: '4lw',
  summary: 'send a four-letter word (ruok, srvr, stat, mntr, cons, wchs, conf, envi, ...) to each server',
  usage,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseTimeout(args, ['COMMAND']);
    if (typeof parsed === 'string') return usageError('4lw', parsed, usage, io);
    const command = parsed.rest[0]!;
    if (!isFourLetterWord(command)) {
      io.err(`zkwire 4lw: unknown four-letter word ${JSON.stringify(command)}; one of ${FOUR_LETTER_WORDS.join(', ')}\n`);
      return 2;
    }
    return runFourLetter(command, parsed.timeoutMs, io);
  },
};
