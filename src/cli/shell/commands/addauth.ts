/** `addauth SCHEME AUTH` (zkCli.sh's): adds credentials to the shell's session, e.g. `addauth digest user:pw`. */

import type { CliIo, Command } from '../../types.js';
import { type ArgSpec, parseCommandArgs, runWithClient, usageError } from '../../commands/node-client.js';

const usage = `Usage: addauth SCHEME AUTH

Adds credentials to the shell's session (sent again on every reconnect), as zkCli.sh's addauth:
  addauth digest user:password     then nodes with digest ACLs for user are reachable
The server checks them at once: a wrong scheme ends the session with AUTHFAILED.
Words split as in a POSIX shell, so quote an AUTH holding spaces. Prints nothing.

Exit status: 0 added, 1 error, 2 usage error.
`;

const spec: ArgSpec = { positionals: ['SCHEME', 'AUTH'], required: 2 };

export const addauthCommand: Command = {
  name: 'addauth',
  summary: "add credentials to the shell's session (addauth digest user:password)",
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('addauth', parsed, usage, io);
    const [scheme, auth] = parsed.positionals as [string, string];
    return runWithClient('addauth', io, async (client, signal) => {
      await client.addAuth(scheme, auth, { signal });
      return 0;
    });
  },
};
