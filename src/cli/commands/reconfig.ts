/** `zkwire reconfig`: changes the ensemble's membership (dynamic reconfiguration), incrementally or in bulk. */

import { reconfig, type ReconfigChange } from '../../node.js';
import type { CliIo, Command } from '../types.js';
import { printConfig } from './config.js';
import { type ArgSpec, parseCommandArgs, runWithClient, usageError } from './node-client.js';

const usage = `Usage: zkwire reconfig [--add SPEC]... [--remove ID[,ID...]]... [--from-config VERSION]
       zkwire reconfig --members SPEC[,SPEC...] [--from-config VERSION]
       [--server HOSTS] [--auth SCHEME:CRED] [--json]

Changes the membership of an ensemble running with reconfigEnabled=true. The servers allow it only to a
superuser (give its identity with --auth digest:super:PASSWORD) or with skipACL.
  --add SPEC          a server joining, "server.ID=host:quorumPort:electionPort[:role];[clientHost:]clientPort"
                      (repeatable)
  --remove IDS        server ids leaving, comma-separated (repeatable)
  --members SPECS     bulk: the whole new membership, comma-separated specs (not with --add/--remove)
  --from-config V     only if the current configuration version is V (hex, as "zkwire config" shows it),
                      else BADVERSION; default: whatever is current
Prints the new configuration as "zkwire config" does (with --json the same JSON).

Exit status: 0 changed, 1 error (e.g. NOAUTH, BADVERSION, RECONFIGDISABLED, NEWCONFIGNOQUORUM), 2 usage error.
`;

/** The change the options describe, or the usage problem. */
function changeFrom(repeated: ReadonlyMap<string, readonly string[]>, fromConfig: string | undefined): ReconfigChange | string {
  const joining = repeated.get('--add') ?? [];
  const leaving: string[] = [];
  for (const ids of repeated.get('--remove') ?? []) {
    for (const id of ids.split(',')) {
      if (!/^\d+$/.test(id.trim())) return `--remove takes server ids (integers), got ${JSON.stringify(id)}`;
      leaving.push(id.trim());
    }
  }
  const members = (repeated.get('--members') ?? []).flatMap((m) => m.split(',')).map((s) => s.trim()).filter((s) => s !== '');
  if (fromConfig !== undefined && !/^(0x)?[0-9a-f]+$/i.test(fromConfig)) return `--from-config takes a hex configuration version, got ${fromConfig}`;
  const from = fromConfig === undefined ? {} : { fromConfig };
  if (joining.some((s) => s.trim() === '')) return '--add needs a server spec';
  if (members.length > 0) {
    if (joining.length > 0 || leaving.length > 0) return 'give --members (bulk) or --add/--remove (incremental), not both';
    return { newMembers: members, ...from };
  }
  if (joining.length === 0 && leaving.length === 0) return 'give --add, --remove or --members';
  return { ...(joining.length > 0 ? { joining } : {}), ...(leaving.length > 0 ? { leaving } : {}), ...from };
}

const spec: ArgSpec = { valued: ['--add', '--remove', '--members', '--from-config'], positionals: [], required: 0 };

export const reconfigCommand: Command = {
  name: 'reconfig',
  summary: "change the ensemble's membership (incremental --add/--remove, or bulk --members)",
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('reconfig', parsed, usage, io);
    const change = changeFrom(parsed.repeated, parsed.values.get('--from-config'));
    if (typeof change === 'string') return usageError('reconfig', change, usage, io);
    return runWithClient('reconfig', io, async (client) => {
      printConfig(io, await reconfig(client, change));
      return 0;
    });
  },
};
