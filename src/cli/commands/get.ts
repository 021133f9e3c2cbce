/** `zkwire get PATH`: a node's data. */

import type { CliIo, Command } from '../types.js';
import { type ArgSpec, dataToJson, parseCommandArgs, print, runWithClient, statToJson, usageError } from './node-client.js';

const usage = `Usage: zkwire get PATH [--hex | --raw] [--server HOSTS] [--session-timeout MS] [--json]

Prints the data of PATH: as text when it is valid UTF-8, else as hex (with a note on stderr: never text with
replacement characters).
  --hex   always as hex (lower case, one line)
  --raw   the bytes exactly as stored, nothing added (no newline): zkwire get /n --raw > file
With --json: {"path", "data", "encoding": "utf8"|"hex", "stat": {...}} (64-bit Stat fields as decimal strings).
With no --server, a throwaway local ZooKeeper is started and stopped.

Exit status: 0 read, 1 error (e.g. NONODE), 2 usage error.
`;

const spec: ArgSpec = { flags: ['--hex', '--raw'], positionals: ['PATH'], required: 1 };

export const getCommand: Command = {
  name: 'get',
  summary: 'print the data of a node',
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('get', parsed, usage, io);
    const path = parsed.positionals[0]!;
    const raw = parsed.flags.has('--raw');
    if (raw && (parsed.flags.has('--hex') || io.globals.json)) return usageError('get', '--raw cannot be combined with --hex or --json', usage, io);
    if (raw && io.write === undefined) return usageError('get', '--raw needs a byte stream to write to', usage, io);
    return runWithClient('get', io, async (client, signal) => {
      const { data, stat } = await client.getData(path, { signal });
      if (raw) {
        io.write!(data);
        return 0;
      }
      const shown = dataToJson(data, parsed.flags.has('--hex'));
      if (!io.globals.json && shown.encoding === 'hex' && !parsed.flags.has('--hex')) io.err(`zkwire get: ${path} holds ${data.length} byte(s) that are not UTF-8; shown as hex\n`);
      print(io, { path, ...shown, stat: statToJson(stat) }, () => shown.data);
      return 0;
    });
  },
};
