/** `zkwire ls PATH`: a node's children, sorted (the server returns them in no particular order). */

import type { CliIo, Command } from '../types.js';
import { parseCommandArgs, type ArgSpec, runWithClient, statToJson, usageError } from './node-client.js';

const usage = `Usage: zkwire ls PATH [--server HOSTS] [--session-timeout MS] [--json]

Lists the children of PATH, one name per line, sorted.
With --json: {"path", "children": [names...], "stat": {...}} (the parent's Stat; 64-bit fields as decimal strings).
With no --server, a throwaway local ZooKeeper is started and stopped.

Exit status: 0 listed, 1 error (e.g. NONODE), 2 usage error.
`;

const spec: ArgSpec = { positionals: ['PATH'], required: 1 };

export const lsCommand: Command = {
  name: 'ls',
  summary: 'list the children of a node',
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('ls', parsed, usage, io);
    const path = parsed.positionals[0]!;
    return runWithClient('ls', io, async (client, signal) => {
      const { children, stat } = await client.getChildrenWithStat(path, { signal });
      children.sort();
      if (io.globals.json) io.out(`${JSON.stringify({ path, children, stat: statToJson(stat) })}\n`);
      else if (children.length > 0) io.out(`${children.join('\n')}\n`);
      return 0;
    });
  },
};
