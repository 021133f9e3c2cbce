/** `lsr PATH` (zkCli.sh 3.4's; `ls -R` in later ones): every path in a subtree. */

import type { ZooKeeperClient } from '../../../node.js';
import type { CliIo, Command } from '../../types.js';
import { type ArgSpec, parseCommandArgs, runWithClient, usageError } from '../../commands/node-client.js';

const usage = `Usage: lsr PATH     (also: ls -R PATH)

Prints PATH and every node below it, one full path a line, level by level (as zkCli.sh's ls -R), each level's
paths sorted. A node deleted while the walk runs is left out.

Exit status: 0 listed, 1 error (e.g. NONODE for PATH), 2 usage error.
`;

const spec: ArgSpec = { positionals: ['PATH'], required: 1 };

/** The lists of children asked for at once: one level's nodes are read pipelined, in slices of this many. */
const PIPELINED = 256;

const join = (parent: string, name: string): string => (parent === '/' ? `/${name}` : `${parent}/${name}`);

async function childrenOrGone(client: ZooKeeperClient, path: string, signal: AbortSignal): Promise<string[]> {
  try {
    return await client.getChildren(path, { signal });
  } catch (e) {
    if ((e as { code?: string }).code === 'NONODE') return [];
    throw e;
  }
}

export const lsrCommand: Command = {
  name: 'lsr',
  summary: 'every path in a subtree (zkCli.sh: ls -R)',
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('lsr', parsed, usage, io);
    const root = parsed.positionals[0]!;
    return runWithClient('lsr', io, async (client, signal) => {
      // The root's own listing is not forgiven: NONODE for it is the user's error, not a race with a delete.
      const first = await client.getChildren(root, { signal });
      io.out(`${root}\n`);
      let level = first.sort().map((c) => join(root, c));
      if (level.length > 0) io.out(`${level.join('\n')}\n`);
      while (level.length > 0) {
        const next: string[] = [];
        for (let i = 0; i < level.length; i += PIPELINED) {
          const slice = level.slice(i, i + PIPELINED);
          const lists = await Promise.all(slice.map((p) => childrenOrGone(client, p, signal)));
          slice.forEach((p, j) => next.push(...lists[j]!.sort().map((c) => join(p, c))));
        }
        if (next.length > 0) io.out(`${next.join('\n')}\n`);
        level = next;
      }
      return 0;
    });
  },
};
