/**
 * `zkwire ls PATH`: a node's children, sorted (the server returns them in no particular order); `-R`: every node
 * of the subtree, full paths, each before its children (zkCli's `ls -R`).
 */

import type { CliIo, Command } from '../types.js';
import { kindOf, walkTree } from '../../tools/tree/index.js';
import { commandInterrupt } from '../interrupt.js';
import { parseCommandArgs, type ArgSpec, runWithClient, statToJson, usageError } from './node-client.js';

const usage = `Usage: zkwire ls [-R] PATH [--server HOSTS] [--session-timeout MS] [--json]

Lists the children of PATH, one name per line, sorted.
With --json: {"path", "children": [names...], "stat": {...}} (the parent's Stat; 64-bit fields as decimal strings).
  -R, --recursive   every node below PATH (PATH first), one full path per line, each before its children;
                    with --json one {"path", "numChildren", "ephemeral"} per line
With no --server, a throwaway local ZooKeeper is started and stopped.

Exit status: 0 listed, 1 error (e.g. NONODE), 2 usage error.
`;

const spec: ArgSpec = { flags: ['-R', '--recursive'], positionals: ['PATH'], required: 1 };

export const lsCommand: Command = {
  name: 'ls',
  summary: 'list the children of a node',
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('ls', parsed, usage, io);
    const path = parsed.positionals[0]!;
    if (parsed.flags.size > 0) return lsRecursive(path, io);
    return runWithClient('ls', io, async (client, signal) => {
      const { children, stat } = await client.getChildrenWithStat(path, { signal });
      children.sort();
      if (io.globals.json) io.out(`${JSON.stringify({ path, children, stat: statToJson(stat) })}\n`);
      else if (children.length > 0) io.out(`${children.join('\n')}\n`);
      return 0;
    });
  },
};

/** `ls -R`: the walk printed as it goes, so a large tree shows at once and Ctrl-C stops it. */
async function lsRecursive(path: string, io: CliIo): Promise<number> {
  using interrupt = commandInterrupt('ls', io);
  return await runWithClient(
    'ls',
    io,
    async (client) => {
      try {
        for await (const node of walkTree(client, path, { signal: interrupt.signal })) {
          const ephemeral = kindOf(node.stat.ephemeralOwner).kind === 'ephemeral';
          io.out(io.globals.json ? `${JSON.stringify({ path: node.path, numChildren: node.children.length, ephemeral })}\n` : `${node.path}\n`);
        }
      } catch (e) {
        if (interrupt.exitCode === undefined) throw e;
        return interrupt.exitCode;
      }
      return 0;
    },
    { interrupt },
  );
}
