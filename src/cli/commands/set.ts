/** `zkwire set PATH DATA`: replaces a node's data, optionally only at an expected version. */

import type { CliIo, Command } from '../types.js';
import { integerOption, parseCommandArgs, print, runWithClient, statToJson, statToText, usageError } from './node-client.js';

const usage = `Usage: zkwire set PATH DATA [--version V] [--server HOSTS] [--session-timeout MS] [--json]

Sets the data of PATH to DATA (sent as UTF-8) and prints the node's new Stat.
  --version V   only if the node's data version is V (else BADVERSION); default: any version
With --json: {"path", "stat": {...}} (64-bit Stat fields as decimal strings).
With no --server, a throwaway local ZooKeeper is started and stopped.

Exit status: 0 set, 1 error (e.g. NONODE, BADVERSION), 2 usage error.
`;

export const setCommand: Command = {
  name: 'set',
  summary: 'set the data of a node',
  usage,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, { valued: ['--version'], positionals: ['PATH', 'DATA'], required: 2 });
    if (typeof parsed === 'string') return usageError('set', parsed, usage, io);
    const [path, data] = parsed.positionals as [string, string];
    const v = parsed.values.get('--version');
    const version = v === undefined ? -1 : integerOption('--version', v, 0);
    if (typeof version === 'string') return usageError('set', version, usage, io);
    return runWithClient('set', io, async (client) => {
      const stat = await client.setData(path, data, { version });
      print(io, { path, stat: statToJson(stat) }, () => statToText(stat));
      return 0;
    });
  },
};
