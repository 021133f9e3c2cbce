/**
 * `zkwire setacl PATH ACL`: replaces a node's ACL, written as zkCli writes it (scheme:id:perms[,…]); with -R, of
 * every node of the subtree.
 */

import { Perms, type ACL } from '../../node.js';
import { walkTree } from '../../tools/tree/index.js';
import { commandInterrupt } from '../interrupt.js';
import type { CliIo, Command } from '../types.js';
import { aclEntryText } from './getacl.js';
import { type ArgSpec, integerOption, parseCommandArgs, print, runWithClient, statToJson, usageError } from './node-client.js';

const usage = `Usage: zkwire setacl [-R] PATH ACL [--version V] [--server HOSTS] [--auth SCHEME:CRED] [--json]

Sets the ACL of PATH. ACL is one or more SCHEME:ID:PERMS entries separated by commas, PERMS being letters
from c (create), d (delete), r (read), w (write), a (admin), e.g.
  world:anyone:r
  digest:alice:<base64 sha1 of alice:password>:cdrwa,world:anyone:r
  auth::cdrwa        (every identity this session authenticated with --auth)
  ip:10.0.0.0/8:rw
  --version V   only if the node's ACL version (aversion) is V (else BADVERSION); default: any version
  -R, --recursive
                PATH and every node below it (parents first; not with --version). Setting an ACL is
                idempotent: if it stops part way (Ctrl-C, NOAUTH on a node), run it again.
Prints the new ACL as getacl does (with --json: {"path", "stat"}); with -R, how many nodes were set
(with --json: {"path", "nodes"}).

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

const spec: ArgSpec = { flags: ['-R', '--recursive'], valued: ['--version'], positionals: ['PATH', 'ACL'], required: 2 };

/** How many setACL requests share the wire at once in a recursive run. */
const WINDOW = 256;

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
    if (parsed.flags.size > 0) {
      if (v !== undefined) return usageError('setacl', '--version cannot be combined with -R', usage, io);
      return setaclRecursive(path, acl, io);
    }
    return runWithClient('setacl', io, async (client, signal) => {
      const stat = await client.setACL(path, acl, { version, signal });
      const now = await client.getACL(path, { signal });
      print(io, { path, stat: statToJson(stat) }, () => now.acl.map(aclEntryText).join('\n'));
      return 0;
    });
  },
};

/** setacl -R: walks the subtree and sets each node's ACL, a window of requests at a time. */
async function setaclRecursive(root: string, acl: readonly ACL[], io: CliIo): Promise<number> {
  using interrupt = commandInterrupt('setacl', io);
  return await runWithClient(
    'setacl',
    io,
    async (client) => {
      const signal = interrupt.signal;
      let done = 0;
      let window: Promise<unknown>[] = [];
      const drain = async (): Promise<void> => {
        const results = await Promise.allSettled(window);
        window = [];
        done += results.filter((r) => r.status === 'fulfilled').length;
        const failed = results.find((r) => r.status === 'rejected');
        if (failed !== undefined) throw failed.reason;
      };
      try {
        // The walk reads the children before the ACL changes: a new ACL without READ does not stop it.
        for await (const node of walkTree(client, root, { signal })) {
          window.push(client.setACL(node.path, acl, { signal }));
          if (window.length >= WINDOW) await drain();
        }
        await drain();
      } catch (e) {
        const what = `${done} node(s) set before it stopped; setting an ACL is idempotent: run the same command again to finish`;
        if (interrupt.exitCode !== undefined) {
          io.err(`zkwire setacl: interrupted: ${what}\n`);
          return interrupt.exitCode;
        }
        io.err(`zkwire setacl: ${what}\n`);
        throw e;
      }
      print(io, { path: root, nodes: done }, () => `ACL set on ${done} node(s) under ${root}`);
      return 0;
    },
    { interrupt },
  );
}
