/** `zkwire set PATH DATA`: replaces a node's data, optionally only at an expected version. */

import type { CliIo, Command } from '../types.js';
import { type ArgSpec, integerOption, parseCommandArgs, print, readNodeData, runWithClient, statToJson, statToText, usageError } from './node-client.js';

const usage = `Usage: zkwire set PATH (DATA | - | --file F) [--hex] [--version V] [--server HOSTS] [--json]

Sets the data of PATH and prints the node's new Stat. DATA is sent as UTF-8; "-" reads the data from standard
input and --file F from a file, byte for byte (binary-safe; a trailing newline is kept).
  --file F      the data is the contents of F
  --hex         DATA, standard input or F hold the data as hex (e.g. 00ff10); sent as those bytes
  --version V   only if the node's data version is V (else BADVERSION); default: any version
  --            end of options: DATA may start with "-" (zkwire set /n -- -x)
With --json: {"path", "stat": {...}} (64-bit Stat fields as decimal strings).
With no --server, a throwaway local ZooKeeper is started and stopped.

Exit status: 0 set, 1 error (e.g. NONODE, BADVERSION), 2 usage error.
`;

const spec: ArgSpec = { valued: ['--version', '--file'], flags: ['--hex'], positionals: ['PATH', 'DATA'], required: 1 };

export const setCommand: Command = {
  name: 'set',
  summary: 'set the data of a node',
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('set', parsed, usage, io);
    const [path, arg] = parsed.positionals as [string, string | undefined];
    const v = parsed.values.get('--version');
    const version = v === undefined ? -1 : integerOption('--version', v, 0);
    if (typeof version === 'string') return usageError('set', version, usage, io);
    const data = await readNodeData({ arg, file: parsed.values.get('--file'), hex: parsed.flags.has('--hex') }, io);
    if (data === undefined) return usageError('set', 'give DATA, - (standard input) or --file F', usage, io);
    if (typeof data === 'string') return usageError('set', data, usage, io);
    return runWithClient('set', io, async (client, signal) => {
      const stat = await client.setData(path, data, { version, signal });
      print(io, { path, stat: statToJson(stat) }, () => statToText(stat));
      return 0;
    });
  },
};
