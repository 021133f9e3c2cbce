/** `getEphemerals [PATH]` (zkCli.sh's): the ephemeral nodes of the shell's session. */

import type { CliIo, Command } from '../../types.js';
import { type ArgSpec, parseCommandArgs, print, runWithClient, usageError } from '../../commands/node-client.js';

const usage = `Usage: getEphemerals [PREFIX] [--json]

Lists the ephemeral nodes this shell's session owns whose path starts with PREFIX (a plain string prefix;
default /: all of them), one per line, sorted. ZooKeeper answers for the asking session only; another
session's ephemeral nodes show its id as ephemeralOwner in "stat".
With --json: {"prefix", "ephemerals": [paths...]}.

Exit status: 0 listed, 1 error, 2 usage error.
`;

const spec: ArgSpec = { positionals: ['PREFIX'], required: 0 };

export const getEphemeralsCommand: Command = {
  name: 'getEphemerals',
  summary: "the ephemeral nodes of the shell's session",
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('getEphemerals', parsed, usage, io);
    const prefix = parsed.positionals[0] ?? '/';
    return runWithClient('getEphemerals', io, async (client, signal) => {
      const ephemerals = (await client.getEphemerals(prefix, { signal })).sort();
      if (io.globals.json) print(io, { prefix, ephemerals }, () => '');
      else if (ephemerals.length > 0) io.out(`${ephemerals.join('\n')}\n`);
      return 0;
    });
  },
};
