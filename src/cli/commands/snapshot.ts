/**
 * `zkwire snapshot FILE|DIR`: a ZooKeeper snapshot's sessions, ACL cache, nodes (stat and bounded data) and digest,
 * or with --tree the tree with the size of each subtree, largest first. The newest snapshot of a data directory is
 * read. Decoding is src/tools/txnlog's (pure); this reads (and gunzips) the file and prints.
 */

import { hexId, permsText, shortData, toJsonValue } from '../../protocol/describe.js';
import { DataFileError, decodeSnapshot, gunzip, snappyUnsupported, snapshotCompression, underPath, type SnapshotEvent, type StatPersisted } from '../../tools/txnlog/index.js';
import type { CliIo, Command } from '../types.js';
import { dataFiles, fileChunks } from './data-files.js';
import { integerOption, parseCommandArgs, usageError } from './node-client.js';

const usage = `Usage: zkwire snapshot [--path P] [--tree] [--depth N] FILE|DIR

Decodes a ZooKeeper snapshot (snapshot.<zxid>, plain or gzip-compressed; a data directory: its newest snapshot):
the live sessions with their timeouts, the ACL cache, every node with its stat (zxids and session ids in hex) and
its data (text, or hex when binary; the first 32 characters), the digest where present (3.6+), and the ephemeral
nodes by owner session. With --json, one object per record: {"type": "header"|"session"|"acl"|"node"|"digest"|
"lastZxid"|"end", ...}, node data as {len, hex, text?} in full.

Options:
  --path P    only P and the nodes below it
  --tree      the tree instead: each node with its subtree's node count and bytes (data + path), children
              largest first
  --depth N   with --tree: levels shown below P (default 3)

Exit status: 0 decoded, 1 when the file cannot be read or is corrupt (truncated, checksum, another kind of file),
2 on usage errors.
`;

interface TreeNode {
  name: string;
  own: number;
  bytes: number;
  nodes: number;
  children: Map<string, TreeNode>;
}

function statText(s: StatPersisted, dataLength: number): string {
  return `czxid ${hexId(s.czxid)} mzxid ${hexId(s.mzxid)} pzxid ${hexId(s.pzxid)} ctime ${new Date(Number(s.ctime)).toISOString()} mtime ${new Date(Number(s.mtime)).toISOString()} version ${s.version} cversion ${s.cversion} aversion ${s.aversion} ephemeralOwner ${hexId(s.ephemeralOwner)} dataLength ${dataLength}`;
}

/** ZooKeeper marks container and TTL nodes in ephemeralOwner's top byte (EphemeralType); only the rest are sessions. */
function ownerSession(owner: bigint): bigint | undefined {
  const u = BigInt.asUintN(64, owner);
  if (u === 0n) return undefined;
  const top = u >> 56n;
  return top === 0x80n || top === 0xffn ? undefined : u;
}

async function* snapshotBytes(file: string): AsyncGenerator<Uint8Array> {
  const chunks = fileChunks(file)[Symbol.asyncIterator]();
  const first = await chunks.next();
  if (first.done === true) return;
  const rest = (async function* () {
    yield first.value;
    for (let r = await chunks.next(); r.done !== true; r = await chunks.next()) yield r.value;
  })();
  const compression = snapshotCompression(first.value);
  if (compression === 'snappy') throw snappyUnsupported();
  yield* compression === 'gzip' ? gunzip(rest) : rest;
}

export const snapshotCommand: Command = {
  name: 'snapshot',
  summary: 'decode a ZooKeeper snapshot: sessions, ACLs, nodes with stat and data, a tree with sizes',
  usage,
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandArgs(args, { flags: ['--tree'], valued: ['--path', '--depth'], positionals: ['FILE'], required: 1 });
    if (typeof parsed === 'string') return usageError('snapshot', parsed, usage, io);
    const prefix = parsed.values.get('--path') ?? '/';
    if (!prefix.startsWith('/')) return usageError('snapshot', `--path needs an absolute path, got ${prefix}`, usage, io);
    const depthArg = parsed.values.get('--depth');
    const depth = depthArg === undefined ? 3 : integerOption('--depth', depthArg, 0);
    if (typeof depth === 'string') return usageError('snapshot', depth, usage, io);
    const tree = parsed.flags.has('--tree');
    const json = io.globals.json;
    const found = await dataFiles(parsed.positionals[0]!, 'snapshot');
    if (typeof found === 'string') {
      io.err(`zkwire snapshot: ${found}\n`);
      return 1;
    }
    const file = found[found.length - 1]!;
    const root: TreeNode = { name: prefix, own: 0, bytes: 0, nodes: 0, children: new Map() };
    const ephemerals = new Map<bigint, string[]>();
    const sessions: { id: bigint; timeout: number }[] = [];
    let digest = '';
    try {
      for await (const batch of decodeSnapshot(snapshotBytes(file))) {
        let text = '';
        for (const e of batch) {
          if (e.type === 'node') {
            if (!underPath(e.path, prefix)) continue;
            const owner = ownerSession(e.stat.ephemeralOwner);
            if (owner !== undefined) ephemerals.set(owner, [...(ephemerals.get(owner) ?? []), e.path]);
            if (tree) addToTree(root, prefix, e.path, (e.data?.length ?? 0) + e.path.length);
            else if (json) text += `${JSON.stringify({ type: 'node', path: e.path, dataLength: e.data?.length ?? 0, aclRef: e.aclRef.toString(), stat: { ...(toJsonValue(e.stat) as object), czxid: hexId(e.stat.czxid), mzxid: hexId(e.stat.mzxid), pzxid: hexId(e.stat.pzxid), ephemeralOwner: hexId(e.stat.ephemeralOwner) }, data: toJsonValue(e.data) })}\n`;
            else text += `${e.path}\n  ${statText(e.stat, e.data?.length ?? 0)}\n  data ${shortData(e.data)}\n`;
            continue;
          }
          if (e.type === 'session') sessions.push({ id: e.id, timeout: e.timeout });
          if (e.type === 'digest') digest = `digest: zxid ${hexId(e.zxid)} version ${e.version} value ${e.digest}`;
          if (tree) continue;
          if (json) text += `${JSON.stringify(eventJson(e, file))}\n`;
          else text += eventText(e, file);
        }
        if (text !== '') io.out(text);
      }
    } catch (err) {
      const message = err instanceof DataFileError ? err.message : `cannot read: ${err instanceof Error ? err.message : String(err)}`;
      io.err(json ? `${JSON.stringify({ error: { code: err instanceof DataFileError ? err.code : 'ERROR', message: `${file}: ${message}` } })}\n` : `zkwire snapshot: ${file}: ${message}\n`);
      return 1;
    }
    if (tree) {
      io.out(json ? `${JSON.stringify(treeJson(root, depth))}\n` : treeText(root, depth, ''));
      return 0;
    }
    if (json) {
      io.out(`${JSON.stringify({ type: 'ephemerals', bySession: Object.fromEntries([...ephemerals].map(([id, paths]) => [hexId(id), paths])) })}\n`);
      return 0;
    }
    let text = `\nEphemeral nodes by session${prefix === '/' ? '' : ` (under ${prefix})`}:\n`;
    for (const s of sessions) text += `  ${hexId(s.id)} timeout ${s.timeout}ms: ${(ephemerals.get(s.id) ?? []).join(', ') || 'none'}\n`;
    for (const [id, paths] of ephemerals) if (!sessions.some((s) => s.id === id)) text += `  ${hexId(id)} (no session in the snapshot): ${paths.join(', ')}\n`;
    if (digest !== '') text += `${digest}\n`;
    io.out(text);
    return 0;
  },
};

function eventText(e: SnapshotEvent, file: string): string {
  switch (e.type) {
    case 'header':
      return `# ${file}: snapshot, format version ${e.header.version}, dbid ${e.header.dbid}\n`;
    case 'session':
      return `session ${hexId(e.id)} timeout ${e.timeout}ms\n`;
    case 'acl':
      return `acl ${e.ref}: ${e.acl.map((a) => `${a.id.scheme}:${a.id.id}:${permsText(a.perms)}`).join(', ')}\n`;
    case 'digest':
      return `digest zxid ${hexId(e.zxid)} version ${e.version} value ${e.digest}\n`;
    case 'lastZxid':
      return `last processed zxid ${hexId(e.zxid)}\n`;
    case 'end':
      return `# ${e.nodes} node(s), ${e.sessions} session(s), ${e.acls} ACL cache entr${e.acls === 1 ? 'y' : 'ies'}, checksum seals ${e.seals} ok\n`;
    case 'node':
      return '';
  }
}

function eventJson(e: SnapshotEvent, file: string): unknown {
  switch (e.type) {
    case 'header':
      return { type: 'header', file, version: e.header.version, dbid: e.header.dbid.toString() };
    case 'session':
      return { type: 'session', id: hexId(e.id), timeout: e.timeout };
    case 'digest':
      return { type: 'digest', zxid: hexId(e.zxid), version: e.version, digest: e.digest.toString() };
    case 'lastZxid':
      return { type: 'lastZxid', zxid: hexId(e.zxid) };
    default:
      return toJsonValue(e);
  }
}

function addToTree(root: TreeNode, prefix: string, path: string, size: number): void {
  const rest = path === prefix ? '' : path.slice(prefix === '/' ? 1 : prefix.length + 1);
  let node = root;
  node.bytes += size;
  node.nodes++;
  if (rest === '') {
    node.own = size;
    return;
  }
  for (const part of rest.split('/')) {
    let child = node.children.get(part);
    if (child === undefined) {
      child = { name: part, own: 0, bytes: 0, nodes: 0, children: new Map() };
      node.children.set(part, child);
    }
    child.bytes += size;
    child.nodes++;
    node = child;
  }
  node.own = size;
}

const TREE_CHILDREN = 10;

function sorted(n: TreeNode): TreeNode[] {
  return [...n.children.values()].sort((a, b) => b.bytes - a.bytes || a.name.localeCompare(b.name));
}

function treeText(n: TreeNode, depth: number, indent: string): string {
  let out = `${indent}${n.name}  ${n.bytes} B in ${n.nodes} node(s)\n`;
  if (depth === 0) return out;
  const kids = sorted(n);
  for (const c of kids.slice(0, TREE_CHILDREN)) out += treeText(c, depth - 1, `${indent}  `);
  if (kids.length > TREE_CHILDREN) out += `${indent}  … ${kids.length - TREE_CHILDREN} more\n`;
  return out;
}

function treeJson(n: TreeNode, depth: number): unknown {
  return { name: n.name, bytes: n.bytes, nodes: n.nodes, ...(depth > 0 && n.children.size > 0 ? { children: sorted(n).map((c) => treeJson(c, depth - 1)) } : {}) };
}
