/** `setquota`, `listquota`, `delquota` (zkCli.sh's), in ZooKeeper's own layout (quota-layout.ts). */

import { clientError } from '../../../errors.js';
import { ZooKeeperError, type ZooKeeperClient } from '../../../node.js';
import type { CliIo, Command } from '../../types.js';
import { type ArgSpec, parseCommandArgs, print, runWithClient, usageError } from '../../commands/node-client.js';
import { ancestors, formatStatsTrack, LIMIT_NODE, parseStatsTrack, QUOTA_FIELDS, QUOTA_ROOT, quotaDir, STATS_NODE, type QuotaOption } from './quota-layout.js';

const OPTIONS = Object.keys(QUOTA_FIELDS) as QuotaOption[];

const isCode = (e: unknown, code: string): boolean => e instanceof ZooKeeperError && e.code === code;

async function readTrack(client: ZooKeeperClient, path: string, signal: AbortSignal): Promise<Map<string, bigint> | undefined> {
  try {
    return parseStatsTrack(new TextDecoder().decode((await client.getData(path, { signal })).data));
  } catch (e) {
    if (isCode(e, 'NONODE')) return undefined;
    throw e;
  }
}

async function createIfAbsent(client: ZooKeeperClient, path: string, data: string | null, signal: AbortSignal): Promise<boolean> {
  try {
    await client.create(path, data, { signal });
    return true;
  } catch (e) {
    if (isCode(e, 'NODEEXISTS')) return false;
    throw e;
  }
}

/** Refuses a quota nested in another (ZooKeeper counts each node in one quota only), as zkCli.sh does. */
async function checkNoNesting(client: ZooKeeperClient, path: string, signal: AbortSignal): Promise<void> {
  for (const a of ancestors(path)) {
    if ((await client.exists(`${quotaDir(a)}/${LIMIT_NODE}`, { signal })) !== null) throw clientError('BAD_ARGUMENT', `${path} is below ${a}, which has a quota: ZooKeeper allows no quota inside another`, { op: 'setquota', path });
  }
  const below: string[] = [quotaDir(path)];
  while (below.length > 0) {
    const dir = below.pop()!;
    let children: string[];
    try {
      children = await client.getChildren(dir, { signal });
    } catch (e) {
      if (isCode(e, 'NONODE')) continue;
      throw e;
    }
    for (const c of children) {
      if (c === LIMIT_NODE && dir !== quotaDir(path)) throw clientError('BAD_ARGUMENT', `${path} has ${dir.slice(QUOTA_ROOT.length)} below it, which has a quota: ZooKeeper allows no quota inside another`, { op: 'setquota', path });
      if (c !== LIMIT_NODE && c !== STATS_NODE) below.push(`${dir}/${c}`);
    }
  }
}

// ---- setquota ---------------------------------------------------------------------------------------------

const setUsage = `Usage: setquota (-n COUNT | -b BYTES | -N COUNT | -B BYTES)... PATH

Sets a quota on PATH's subtree as zkCli.sh does, in /zookeeper/quota (so zkCli.sh and the server read it):
  -n COUNT   soft limit on the number of nodes (the server logs a warning when it is passed)
  -b BYTES   soft limit on the bytes of data
  -N COUNT   hard limit on the number of nodes (writes past it fail with QUOTAEXCEEDED; ZooKeeper 3.7+)
  -B BYTES   hard limit on the bytes (3.7+)
Limits not given keep their value (-1: none). PATH must exist, and no quota may be above or below it.

Exit status: 0 set, 1 error, 2 usage error.
`;

const setSpec: ArgSpec = { valued: OPTIONS, positionals: ['PATH'], required: 1 };

export const setquotaCommand: Command = {
  name: 'setquota',
  summary: "set a quota on a subtree (zkCli.sh's setquota, same nodes)",
  usage: setUsage,
  spec: setSpec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, setSpec);
    if (typeof parsed === 'string') return usageError('setquota', parsed, setUsage, io);
    const path = parsed.positionals[0]!;
    const given = new Map<string, bigint>();
    for (const o of OPTIONS) {
      const v = parsed.values.get(o);
      if (v === undefined) continue;
      if (!/^(-1|\d+)$/.test(v)) return usageError('setquota', `${o} needs a whole number (or -1: no limit), got ${v}`, setUsage, io);
      given.set(QUOTA_FIELDS[o], BigInt(v));
    }
    if (given.size === 0) return usageError('setquota', `give a limit: ${OPTIONS.join(', ')}`, setUsage, io);
    if (path === '/' || path === QUOTA_ROOT || path.startsWith(`${QUOTA_ROOT}/`)) return usageError('setquota', `no quota can be set on / or under ${QUOTA_ROOT}`, setUsage, io);
    return runWithClient('setquota', io, async (client, signal) => {
      if ((await client.exists(path, { signal })) === null) throw clientError('NONODE', undefined, { op: 'setquota', path });
      await checkNoNesting(client, path, signal);
      // Each level of the quota directory, as zkCli.sh makes it (persistent, open ACL, no data).
      for (const dir of [...ancestors(path), path].map(quotaDir)) await createIfAbsent(client, dir, null, signal);
      const limitPath = `${quotaDir(path)}/${LIMIT_NODE}`;
      // A new limits node names all four fields (-1: none), as zkCli.sh 3.7+ writes it; an existing one keeps its.
      const limits = (await readTrack(client, limitPath, signal)) ?? new Map(Object.values(QUOTA_FIELDS).map((k) => [k, -1n]));
      for (const [k, v] of given) limits.set(k, v);
      const text = formatStatsTrack(limits);
      if (!(await createIfAbsent(client, limitPath, text, signal))) await client.setData(limitPath, text, { signal });
      // The server fills the usage in when the stats node is created (and keeps it up to date).
      await createIfAbsent(client, `${quotaDir(path)}/${STATS_NODE}`, formatStatsTrack(new Map([['count', 0n], ['bytes', 0n]])), signal);
      print(io, { path, limits: text }, () => `quota for ${path}: ${text}`);
      return 0;
    });
  },
};

// ---- listquota --------------------------------------------------------------------------------------------

const listUsage = `Usage: listquota PATH [--json]

Prints the quota on PATH and its usage as the server counts it (StatsTrack text as stored: count, bytes, and
the hard limits of 3.7+; -1 is no limit). With --json: {"path", "limits": {...}, "usage": {...}}, numbers as
decimal strings.

Exit status: 0 listed, 1 error (NONODE when PATH has no quota), 2 usage error.
`;

const pathSpec: ArgSpec = { positionals: ['PATH'], required: 1 };

const asJson = (m: ReadonlyMap<string, bigint> | undefined): Record<string, string> | null => (m === undefined ? null : Object.fromEntries([...m].map(([k, v]) => [k, v.toString()])));

export const listquotaCommand: Command = {
  name: 'listquota',
  summary: 'the quota on a subtree and its usage',
  usage: listUsage,
  spec: pathSpec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, pathSpec);
    if (typeof parsed === 'string') return usageError('listquota', parsed, listUsage, io);
    const path = parsed.positionals[0]!;
    return runWithClient('listquota', io, async (client, signal) => {
      const limits = await readTrack(client, `${quotaDir(path)}/${LIMIT_NODE}`, signal);
      if (limits === undefined) throw clientError('NONODE', `no quota on ${path}`, { op: 'listquota', path });
      const usage = await readTrack(client, `${quotaDir(path)}/${STATS_NODE}`, signal);
      print(io, { path, limits: asJson(limits), usage: asJson(usage) }, () =>
        [`quota for ${path}: ${formatStatsTrack(limits)}`, `usage of ${path}: ${usage === undefined ? 'not counted yet' : formatStatsTrack(usage)}`].join('\n'),
      );
      return 0;
    });
  },
};

// ---- delquota ---------------------------------------------------------------------------------------------

const delUsage = `Usage: delquota [-n | -b | -N | -B] PATH

With an option, clears that one limit on PATH (sets it to -1); with none, removes PATH's quota altogether (its
nodes under /zookeeper/quota, and the directories left empty above them), as zkCli.sh's delquota.

Exit status: 0 done, 1 error (NONODE when PATH has no quota), 2 usage error.
`;

const delSpec: ArgSpec = { flags: OPTIONS, positionals: ['PATH'], required: 1 };

export const delquotaCommand: Command = {
  name: 'delquota',
  summary: 'remove a quota, or one of its limits',
  usage: delUsage,
  spec: delSpec,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, delSpec);
    if (typeof parsed === 'string') return usageError('delquota', parsed, delUsage, io);
    const path = parsed.positionals[0]!;
    const clear = OPTIONS.filter((o) => parsed.flags.has(o)).map((o) => QUOTA_FIELDS[o]);
    return runWithClient('delquota', io, async (client, signal) => {
      const limitPath = `${quotaDir(path)}/${LIMIT_NODE}`;
      const limits = await readTrack(client, limitPath, signal);
      if (limits === undefined) throw clientError('NONODE', `no quota on ${path}`, { op: 'delquota', path });
      if (clear.length > 0) {
        for (const k of clear) limits.set(k, -1n);
        await client.setData(limitPath, formatStatsTrack(limits), { signal });
        return 0;
      }
      await client.deleteRecursive(quotaDir(path), { signal });
      // The levels made for this quota alone go too; one shared with another quota stays.
      for (const dir of ancestors(path).map(quotaDir).reverse()) {
        const stat = await client.exists(dir, { signal });
        if (stat === null || stat.numChildren > 0) break;
        try {
          await client.delete(dir, { signal });
        } catch (e) {
          if (isCode(e, 'NOTEMPTY')) break; // another quota arrived meanwhile
          if (!isCode(e, 'NONODE')) throw e;
        }
      }
      return 0;
    });
  },
};
