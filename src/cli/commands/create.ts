/** `zkwire create PATH [DATA]`: creates a node in any of ZooKeeper's create modes. */

import type { CreateMode } from '../../node.js';
import type { CliIo, Command } from '../types.js';
import { type ArgSpec, integerOption, parseCommandArgs, print, readNodeData, runWithClient, statToJson, usageError } from './node-client.js';

const MODES: readonly CreateMode[] = [
  'persistent',
  'ephemeral',
  'persistent-sequential',
  'ephemeral-sequential',
  'container',
  'ttl',
  'ttl-sequential',
];

const usage = `Usage: zkwire create PATH [DATA | - | --file F] [--hex] [--mode MODE] [--ttl MS] [--server HOSTS] [--json]

Creates PATH with DATA (sent as UTF-8; none when omitted; "-" reads standard input, --file F a file, byte for
byte; --hex takes any of them as hex) and prints the created path (sequential modes add a 10-digit suffix).
The parent must exist. "--" ends the options, so DATA may start with "-".
  --mode MODE   persistent (default), ephemeral, persistent-sequential, ephemeral-sequential, container,
                ttl, ttl-sequential. Ephemeral nodes belong to this command's session and go when it exits.
                Containers are removed by the server once they had children and are empty again.
  --ttl MS      with the ttl modes (required there): the node goes after MS ms without changes or children
                (the server must run with extendedTypesEnabled=true)
With --json: {"path", "stat": {...}} (the created path; 64-bit Stat fields as decimal strings).
With no --server, a throwaway local ZooKeeper is started and stopped.

Exit status: 0 created, 1 error (e.g. NODEEXISTS, NONODE for a missing parent), 2 usage error.
`;

const spec: ArgSpec = { valued: ['--mode', '--ttl', '--file'], flags: ['--hex'], positionals: ['PATH', 'DATA'], required: 1 };

export const createCommand: Command = {
  name: 'create',
  summary: 'create a node (persistent, ephemeral, sequential, container, ttl)',
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('create', parsed, usage, io);
    const [path, arg] = parsed.positionals as [string, string | undefined];
    const data = await readNodeData({ arg, file: parsed.values.get('--file'), hex: parsed.flags.has('--hex') }, io);
    if (typeof data === 'string') return usageError('create', data, usage, io);
    const mode = (parsed.values.get('--mode') ?? 'persistent') as CreateMode;
    if (!MODES.includes(mode)) return usageError('create', `--mode must be one of ${MODES.join(', ')}`, usage, io);
    const isTtl = mode === 'ttl' || mode === 'ttl-sequential';
    const ttlText = parsed.values.get('--ttl');
    if (isTtl !== (ttlText !== undefined)) {
      return usageError('create', isTtl ? `--mode ${mode} needs --ttl MS` : '--ttl only applies to --mode ttl or ttl-sequential', usage, io);
    }
    const ttl = ttlText === undefined ? undefined : integerOption('--ttl', ttlText, 1);
    if (typeof ttl === 'string') return usageError('create', ttl, usage, io);
    return runWithClient('create', io, async (client, signal) => {
      const created = await client.create(path, data ?? null, { mode, stat: true, signal, ...(ttl === undefined ? {} : { ttl }) });
      print(io, { path: created.path, stat: statToJson(created.stat) }, () => created.path);
      if (mode.startsWith('ephemeral')) {
        const until = io.session === undefined ? "it is gone now that this command's session has closed" : "it goes when the shell's session ends";
        io.err(`zkwire create: ${created.path} is ephemeral: ${until}\n`);
      }
      return 0;
    });
  },
};
