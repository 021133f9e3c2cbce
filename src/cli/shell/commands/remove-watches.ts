/** `removewatches PATH [-c|-d|-a]` (zkCli.sh's): removes the shell session's watches on a node. */

import type { RemoveWatchType } from '../../../node.js';
import type { CliIo, Command } from '../../types.js';
import { type ArgSpec, parseCommandArgs, runWithClient, usageError } from '../../commands/node-client.js';

const usage = `Usage: removewatches PATH [-c | -d | -a | --type TYPE]

Removes this shell session's watches on PATH, on the server: -c the child watches, -d the data watches, -a (the
default) every kind; --type names one of children, data, any, persistent, persistent-recursive. A background
"watch" on PATH ends with it. Prints nothing.

Exit status: 0 removed, 1 error (NOWATCHER when the session has no such watch), 2 usage error.
`;

const spec: ArgSpec = { flags: ['-c', '-d', '-a'], valued: ['--type'], positionals: ['PATH'], required: 1 };

const TYPES: readonly RemoveWatchType[] = ['children', 'data', 'any', 'persistent', 'persistent-recursive'];

export const removewatchesCommand: Command = {
  name: 'removewatches',
  summary: "remove the shell session's watches on a node",
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('removewatches', parsed, usage, io);
    const path = parsed.positionals[0]!;
    const chosen: RemoveWatchType[] = [];
    if (parsed.flags.has('-c')) chosen.push('children');
    if (parsed.flags.has('-d')) chosen.push('data');
    if (parsed.flags.has('-a')) chosen.push('any');
    const named = parsed.values.get('--type');
    if (named !== undefined) {
      if (!(TYPES as readonly string[]).includes(named)) return usageError('removewatches', `--type must be one of ${TYPES.join(', ')}`, usage, io);
      chosen.push(named as RemoveWatchType);
    }
    if (chosen.length > 1) return usageError('removewatches', 'give one of -c, -d, -a and --type', usage, io);
    const type = chosen[0] ?? 'any';
    return runWithClient('removewatches', io, async (client, signal) => {
      await client.removeWatches(path, type, { signal });
      return 0;
    });
  },
};
