/** `getAllChildrenNumber PATH` (zkCli.sh's): how many nodes are below a node, at any depth. */

import type { CliIo, Command } from '../../types.js';
import { type ArgSpec, parseCommandArgs, print, runWithClient, usageError } from '../../commands/node-client.js';

const usage = `Usage: getAllChildrenNumber PATH [--json]

Prints how many nodes are below PATH at any depth (its children, their children, ...), counted by the server
in one request (ZooKeeper 3.6+). With --json: {"path", "descendants": N}.

Exit status: 0 counted, 1 error (e.g. NONODE, UNIMPLEMENTED on older servers), 2 usage error.
`;

const spec: ArgSpec = { positionals: ['PATH'], required: 1 };

export const getAllChildrenNumberCommand: Command = {
  name: 'getAllChildrenNumber',
  summary: 'the number of nodes below a node, at any depth',
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('getAllChildrenNumber', parsed, usage, io);
    const path = parsed.positionals[0]!;
    return runWithClient('getAllChildrenNumber', io, async (client, signal) => {
      const descendants = await client.getAllChildrenNumber(path, { signal });
      print(io, { path, descendants }, () => String(descendants));
      return 0;
    });
  },
};
