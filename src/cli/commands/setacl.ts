/** `zkwire setacl PATH ACL`: replaces a node's ACL, written as zkCli writes it (scheme:id:perms[,…]). */

import { Perms, type ACL } from '../../node.js';
import type { CliIo, Command } from '../types.js';
import { aclEntryText } from './getacl.js';
import { type ArgSpec, integerOption, parseCommandArgs, print, runWithClient, statToJson, usageError } from './node-client.js';

const usage = `Usage: zkwire setacl PATH ACL [--version V] [--server HOSTS] [--auth SCHEME:CRED] [--json]

Sets the ACL of PATH. ACL is one or more SCHEME:ID:PERMS entries separated by commas, PERMS being letters
from c (create), d (delete), r (read), w (write), a (admin), e.g.
  world:anyone:r
  digest:alice:<base64 sha1 of alice:password>:cdrwa,world:anyone:r
  auth::cdrwa        (every identity this session authenticated with --auth)
  ip:10.0.0.0/8:rw
  --version V   only if the node's ACL version (aversion) is V (else BADVERSION); default: any version
Prints the new ACL as getacl does (with --json: {"path", "stat"}).

Exit status: 0 set, 1 error (e.g. NONODE, NOAUTH, INVALIDACL), 2 usage error.
`;

const LETTERS: Readonly<Record<string, number>> = { c: Perms.CREATE, d: Perms.DELETE, r: Perms.READ, w: Perms.WRITE, a: Perms.ADMIN };

/** `scheme:id:perms[,…]` as ACL entries (the id may itself contain ':'), or the reason it is not one. */
export function parseAcl(text: string): ACL[] | string {
  const acl: ACL[] = [];
  for (const entry of text.split(',')) {
    const first = entry.indexOf(':');
    const last = entry.lastIndexOf(':');
    if (first <= 0 || last === first) return `ACL entry ${JSON.stringify(entry)} is not SCHEME:ID:PERMS`;
    let perms = 0;
    for (const letter of entry.slice(last + 1)) {
      const bit = LETTERS[letter];
      if (bit === undefined) return `ACL entry ${JSON.stringify(entry)}: permission letters are c, d, r, w, a`;
      perms |= bit;
    }
    acl.push({ perms, id: { scheme: entry.slice(0, first), id: entry.slice(first + 1, last) } });
  }
  return acl;
}

const spec: ArgSpec = { valued: ['--version'], positionals: ['PATH', 'ACL'], required: 2 };

export const setaclCommand: Command = {
  name: 'setacl',
  summary: 'set the ACL of a node (scheme:id:perms[,...], as zkCli writes it)',
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('setacl', parsed, usage, io);
    const [path, text] = parsed.positionals as [string, string];
    const acl = parseAcl(text);
    if (typeof acl === 'string') return usageError('setacl', acl, usage, io);
    const v = parsed.values.get('--version');
    const version = v === undefined ? -1 : integerOption('--version', v, 0);
    if (typeof version === 'string') return usageError('setacl', version, usage, io);
    return runWithClient('setacl', io, async (client, signal) => {
      const stat = await client.setACL(path, acl, { version, signal });
      const now = await client.getACL(path, { signal });
      print(io, { path, stat: statToJson(stat) }, () => now.acl.map(aclEntryText).join('\n'));
      return 0;
    });
  },
};
