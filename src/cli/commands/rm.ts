/** `zkwire rm PATH [-r]`: deletes a node, or with -r the node and everything below it. */

import { clientError } from '../../errors.js';
import type { CliIo, Command } from '../types.js';
import { type ArgSpec, integerOption, parseCommandArgs, runWithClient, usageError } from './node-client.js';

const usage = `Usage: zkwire rm PATH [-r] [--version V] [--server HOSTS] [--session-timeout MS] [--json]

Deletes PATH. Prints nothing (with --json: {"path", "deleted": true}).
  -r, --recursive   delete PATH and all its descendants (children first)
  --version V       only if the node's data version is V (else BADVERSION); not with -r
With no --server, a throwaway local ZooKeeper is started and stopped.

Exit status: 0 deleted, 1 error (NONODE, NOTEMPTY without -r, BADVERSION, ...), 2 usage error.
`;

const spec: ArgSpec = { flags: ['-r', '--recursive'], valued: ['--version'], positionals: ['PATH'], required: 1 };

export const rmCommand: Command = {
  name: 'rm',
  summary: 'delete a node (-r: with everything below it)',
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('rm', parsed, usage, io);
    const path = parsed.positionals[0]!;
    const recursive = parsed.flags.has('-r') || parsed.flags.has('--recursive');
    const v = parsed.values.get('--version');
    const version = v === undefined ? -1 : integerOption('--version', v, 0);
    if (typeof version === 'string') return usageError('rm', version, usage, io);
    if (recursive && v !== undefined) return usageError('rm', '--version cannot be combined with -r', usage, io);
    return runWithClient('rm', io, async (client, signal) => {
      if (recursive) {
        // deleteRecursive treats a missing node as done; asked to remove something absent, the user hears so,
        // the same as without -r.
        if ((await client.exists(path, { signal })) === null) throw clientError('NONODE', undefined, { op: 'delete', path });
        await client.deleteRecursive(path, { signal });
      } else await client.delete(path, { version, signal });
      if (io.globals.json) io.out(`${JSON.stringify({ path, deleted: true })}\n`);
      return 0;
    });
  },
};
