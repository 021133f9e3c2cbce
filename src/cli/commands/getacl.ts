/** `zkwire getacl PATH`: a node's ACL, one entry per line, permissions as zkCli's letters. */

import { permsText } from '../../protocol/describe.js';
import type { ACL } from '../../node.js';
import type { CliIo, Command } from '../types.js';
import { type ArgSpec, parseCommandArgs, print, runWithClient, statToJson, usageError } from './node-client.js';

const usage = `Usage: zkwire getacl PATH [--server HOSTS] [--auth SCHEME:CRED] [--json]

Prints the ACL of PATH, one entry per line as "scheme:id perms", the permissions as letters:
c create, d delete, r read, w write, a admin (e.g. "world:anyone cdrwa").
With --json: {"path", "acl": [{"scheme", "id", "perms": "cdrwa", "permsMask": 31}], "stat": {...}}.
The same SCHEME:ID:PERMS form is what setacl takes.

Exit status: 0 read, 1 error (e.g. NONODE), 2 usage error.
`;

/** One ACL entry as `scheme:id perms`. */
export function aclEntryText(a: ACL): string {
  return `${a.id.scheme}:${a.id.id} ${permsText(a.perms)}`;
}

const spec: ArgSpec = { positionals: ['PATH'], required: 1 };

export const getaclCommand: Command = {
  name: 'getacl',
  summary: 'print the ACL of a node (scheme:id and permission letters)',
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('getacl', parsed, usage, io);
    const path = parsed.positionals[0]!;
    return runWithClient('getacl', io, async (client, signal) => {
      const { acl, stat } = await client.getACL(path, { signal });
      print(
        io,
        { path, acl: acl.map((a) => ({ scheme: a.id.scheme, id: a.id.id, perms: permsText(a.perms), permsMask: a.perms })), stat: statToJson(stat) },
        () => acl.map(aclEntryText).join('\n'),
      );
      return 0;
    });
  },
};
