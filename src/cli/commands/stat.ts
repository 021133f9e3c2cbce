/** `zkwire stat PATH`: a node's Stat. */

import { clientError } from '../../errors.js';
import type { CliIo, Command } from '../types.js';
import { type ArgSpec, parseCommandArgs, print, runWithClient, statToJson, statToText, usageError } from './node-client.js';

const usage = `Usage: zkwire stat PATH [--server HOSTS] [--session-timeout MS] [--json]

Prints the Stat of PATH, one "name = value" line per field; zxids and ephemeralOwner (a session id) in hex,
times as ISO dates with the milliseconds since the epoch.
With --json: {"path", "stat": {czxid, mzxid, ctime, mtime, version, cversion, aversion, ephemeralOwner,
dataLength, numChildren, pzxid}}, the 64-bit fields as decimal strings.
With no --server, a throwaway local ZooKeeper is started and stopped.

Exit status: 0 found, 1 error (NONODE when PATH does not exist), 2 usage error.
`;

const spec: ArgSpec = { positionals: ['PATH'], required: 1 };

export const statCommand: Command = {
  name: 'stat',
  summary: 'print the Stat of a node (versions, zxids, times, owner)',
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('stat', parsed, usage, io);
    const path = parsed.positionals[0]!;
    return runWithClient('stat', io, async (client, signal) => {
      const stat = await client.exists(path, { signal });
      // exists answers a missing node with null rather than an error; for this command it is one.
      if (stat === null) throw clientError('NONODE', undefined, { op: 'exists', path });
      print(io, { path, stat: statToJson(stat) }, () => statToText(stat));
      return 0;
    });
  },
};
