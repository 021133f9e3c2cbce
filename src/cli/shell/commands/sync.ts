/** `sync PATH` (zkCli.sh's): waits until the shell's server has caught up with the leader. */

import type { CliIo, Command } from '../../types.js';
import { type ArgSpec, parseCommandArgs, print, runWithClient, usageError } from '../../commands/node-client.js';

const usage = `Usage: sync PATH [--json]

Waits until the server the shell is connected to has applied every write the leader had committed when it was
asked, so a read after it sees them (a follower may lag behind). Prints "synced PATH".

Exit status: 0 synced, 1 error, 2 usage error.
`;

const spec: ArgSpec = { positionals: ['PATH'], required: 1 };

export const syncCommand: Command = {
  name: 'sync',
  summary: "bring the shell's server up to date with the leader",
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('sync', parsed, usage, io);
    const path = parsed.positionals[0]!;
    return runWithClient('sync', io, async (client, signal) => {
      await client.sync(path, { signal });
      print(io, { path, synced: true }, () => `synced ${path}`);
      return 0;
    });
  },
};
