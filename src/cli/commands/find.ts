/**
 * `zkwire find PATH`: the nodes of a subtree that match by name (a glob), by data (a regular expression), or that
 * are ephemeral (of one session, with --owner): the leaked-ephemeral hunt and the "where is that setting" search.
 */

import { hexId } from '../../protocol/describe.js';
import { isValidUtf8, utf8Decode } from '../../protocol/utf8.js';
import { nodeName } from '../../protocol/paths.js';
import { globToRegExp, kindOf, walkTree, type TreeNode } from '../../tools/tree/index.js';
import { commandInterrupt } from '../interrupt.js';
import type { CliIo, Command } from '../types.js';
import { type ArgSpec, parseCommandArgs, runWithClient, usageError } from './node-client.js';

const usage = `Usage: zkwire find PATH [--name GLOB] [--data REGEX] [--ephemeral] [--owner SESSION] [--server HOSTS] [--json]

Prints the full path of every node at or below PATH that matches all the tests given (every node when none is):
  --name GLOB      the node's name matches GLOB (* any run, ? one character, [abc] a set), e.g. 'lock-*'
  --data REGEX     the node's data, read as UTF-8, matches the JavaScript regular expression (nodes whose data
                   is not UTF-8 text never match)
  --ephemeral      the node is ephemeral
  --owner SESSION  the node is an ephemeral of this session (hex 0x... or decimal; implies --ephemeral)
With --json one {"path", "ephemeralOwner", "dataLength", "numChildren"} per line (the owner in hex, or null).

Exit status: 0 searched (matches or none), 1 error (e.g. NONODE), 2 usage error.
`;

const spec: ArgSpec = { flags: ['--ephemeral'], valued: ['--name', '--data', '--owner'], positionals: ['PATH'], required: 1 };

type Test = (node: TreeNode) => boolean;

function parseOwner(v: string): bigint | undefined {
  try {
    return /^0x[0-9a-f]+$/i.test(v) || /^\d+$/.test(v) ? BigInt.asUintN(64, BigInt(v)) : undefined;
  } catch {
    return undefined;
  }
}

/** The tests the options ask for, or a usage problem. */
function tests(values: ReadonlyMap<string, string>, ephemeralFlag: boolean): { tests: Test[]; needData: boolean } | string {
  const out: Test[] = [];
  const name = values.get('--name');
  if (name !== undefined) {
    const re = globToRegExp(name);
    if (typeof re === 'string') return `--name: ${re}`;
    out.push((n) => re.test(n.path === '/' ? '' : nodeName(n.path)));
  }
  const data = values.get('--data');
  if (data !== undefined) {
    let re: RegExp;
    try {
      re = new RegExp(data, 'u');
    } catch (e) {
      return `--data: ${e instanceof Error ? e.message : String(e)}`;
    }
    out.push((n) => n.data !== undefined && isValidUtf8(n.data) && re.test(utf8Decode(n.data)));
  }
  const ownerText = values.get('--owner');
  if (ownerText !== undefined) {
    const owner = parseOwner(ownerText);
    if (owner === undefined) return `--owner needs a session id (0x... or decimal), got ${ownerText}`;
    out.push((n) => kindOf(n.stat.ephemeralOwner).owner === owner);
  } else if (ephemeralFlag) out.push((n) => kindOf(n.stat.ephemeralOwner).kind === 'ephemeral');
  return { tests: out, needData: data !== undefined };
}

export const findCommand: Command = {
  name: 'find',
  summary: 'search a subtree by node name (glob), data (regex), ephemeral owner',
  usage,
  spec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, spec);
    if (typeof parsed === 'string') return usageError('find', parsed, usage, io);
    const root = parsed.positionals[0]!;
    const t = tests(parsed.values, parsed.flags.has('--ephemeral'));
    if (typeof t === 'string') return usageError('find', t, usage, io);
    using interrupt = commandInterrupt('find', io);
    return await runWithClient(
      'find',
      io,
      async (client) => {
        try {
          for await (const node of walkTree(client, root, { data: t.needData, signal: interrupt.signal })) {
            if (!t.tests.every((test) => test(node))) continue;
            const owner = kindOf(node.stat.ephemeralOwner).owner;
            const json = { path: node.path, ephemeralOwner: owner === undefined ? null : hexId(owner), dataLength: node.stat.dataLength, numChildren: node.stat.numChildren };
            io.out(io.globals.json ? `${JSON.stringify(json)}\n` : `${node.path}\n`);
          }
        } catch (e) {
          if (interrupt.exitCode === undefined) throw e;
          return interrupt.exitCode;
        }
        return 0;
      },
      { interrupt },
    );
  },
};
