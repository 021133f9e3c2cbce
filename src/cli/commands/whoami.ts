/** `zkwire whoami`: the identities the server attaches to this connection (ZooKeeper 3.7+). */

import type { CliIo, Command } from '../types.js';
import { type ArgSpec, parseCommandArgs, print, runWithClient, usageError } from './node-client.js';

const usage = `Usage: zkwire whoami [--server HOSTS] [--session-timeout MS] [--json]

Prints the identities the server sees for this connection, one "scheme user" line each (e.g. "ip 127.0.0.1").
With --json: {"identities": [{"scheme", "user"}...]}.
With no --server, a throwaway local ZooKeeper is started and stopped.

Exit status: 0 answered, 1 error (UNIMPLEMENTED before ZooKeeper 3.7), 2 usage error.
`;

const spec: ArgSpec = { positionals: [], required: 0 };

export const whoamiCommand: Command = {
  name: 'whoami',
  summary: 'the identities the server sees for this connection',
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('whoami', parsed, usage, io);
    return runWithClient('whoami', io, async (client, signal) => {
      const identities = await client.whoAmI({ signal });
      print(io, { identities }, () => identities.map((i) => `${i.scheme} ${i.user}`).join('\n'));
      return 0;
    });
  },
};
