/**
 * The subtree export format (`zkwire export`, read back by `zkwire import`), version 1:
 *
 *   {"format":"zkwire-export","version":1,"root":"/app","nodes":[
 *   {"path":"","kind":"persistent","data":"hello","encoding":"utf8","acl":[{"scheme":"world","id":"anyone","perms":"cdrwa"}]},
 *   {"path":"config/db","kind":"persistent","data":"AAEC","encoding":"base64","acl":[...]}
 *   ]}
 *
 * One node per line, pre-order, children sorted, so two exports of the same tree are the same bytes and a diff of
 * two exports reads as a diff of the trees. `path` is relative to `root` ("" is the root itself). `data` is the
 * node's bytes as text when they are valid UTF-8 (`encoding: "utf8"`), else base64. `kind` is persistent,
 * container, ttl (with `ttl` in ms) or ephemeral (with `owner`, the session in hex): ephemeral nodes are listed so
 * the file says what was there, but import never creates them (they belong to a session). `stat` (the Stat, 64-bit
 * fields as decimal strings) is there only when asked for; import ignores it. Nothing in the file depends on when
 * it was written.
 */

import { Buffer } from 'node:buffer';
import { Perms, type ACL, type Stat } from '../../protocol/index.js';
import { hexId, permsText, toJsonValue, type JsonValue } from '../../protocol/describe.js';
import { pathProblem } from '../../protocol/paths.js';
import { isValidUtf8, utf8Decode, utf8Encode } from '../../protocol/utf8.js';
import { kindOf, type NodeKind } from './node-kind.js';
import type { TreeNode } from './walk.js';

export const EXPORT_FORMAT = 'zkwire-export';
export const EXPORT_VERSION = 1;

/** One ACL entry as the file writes it: permissions as zkCli's letters. */
export interface AclJson {
  readonly scheme: string;
  readonly id: string;
  readonly perms: string;
}

/** One node of an export. */
export interface ExportNode {
  /** Relative to the export's root, no leading `/`; "" is the root. */
  readonly path: string;
  readonly kind: NodeKind;
  /** For kind `ttl`: its TTL in ms. */
  readonly ttl?: number;
  /** For kind `ephemeral`: the owning session, hex. */
  readonly owner?: string;
  readonly data: string;
  readonly encoding: 'utf8' | 'base64';
  readonly acl: readonly AclJson[];
  readonly stat?: JsonValue;
}

/** A whole export file. */
export interface ExportFile {
  readonly format: typeof EXPORT_FORMAT;
  readonly version: typeof EXPORT_VERSION;
  /** The absolute path the export was taken at. */
  readonly root: string;
  readonly nodes: readonly ExportNode[];
}

/** The path of `path` relative to `root` ("" for the root itself). */
export function relativePath(root: string, path: string): string {
  if (path === root) return '';
  return path.slice(root === '/' ? 1 : root.length + 1);
}

/** A relative path placed under `root`. */
export function absolutePath(root: string, rel: string): string {
  if (rel === '') return root;
  return root === '/' ? `/${rel}` : `${root}/${rel}`;
}

export function aclToJson(acl: readonly ACL[]): AclJson[] {
  return acl.map((a) => ({ scheme: a.id.scheme, id: a.id.id, perms: permsText(a.perms) }));
}

const LETTERS: Readonly<Record<string, number>> = { c: Perms.CREATE, d: Perms.DELETE, r: Perms.READ, w: Perms.WRITE, a: Perms.ADMIN };

/** zkCli's permission letters (any of c, d, r, w, a) as a mask, or undefined when a letter is not one of them. */
export function parsePerms(letters: string): number | undefined {
  let perms = 0;
  for (const letter of letters) {
    const bit = LETTERS[letter];
    if (bit === undefined) return undefined;
    perms |= bit;
  }
  return perms;
}

export function aclFromJson(acl: readonly AclJson[]): ACL[] {
  return acl.map((a) => ({ perms: parsePerms(a.perms) ?? 0, id: { scheme: a.scheme, id: a.id } }));
}

/** Node data as the file writes it. */
export function dataToExport(bytes: Uint8Array): { data: string; encoding: 'utf8' | 'base64' } {
  if (isValidUtf8(bytes)) return { data: utf8Decode(bytes), encoding: 'utf8' };
  return { data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'), encoding: 'base64' };
}

export function dataFromExport(node: Pick<ExportNode, 'data' | 'encoding'>): Uint8Array {
  return node.encoding === 'utf8' ? utf8Encode(node.data) : new Uint8Array(Buffer.from(node.data, 'base64'));
}

/** One walked node (read with data and ACL) as an export entry. */
export function toExportNode(root: string, node: TreeNode, withStat: boolean): ExportNode {
  const k = kindOf(node.stat.ephemeralOwner);
  return {
    path: relativePath(root, node.path),
    kind: k.kind,
    ...(k.ttl === undefined ? {} : { ttl: k.ttl }),
    ...(k.owner === undefined ? {} : { owner: hexId(k.owner) }),
    ...dataToExport(node.data ?? new Uint8Array(0)),
    acl: aclToJson(node.acl ?? []),
    ...(withStat ? { stat: statJson(node.stat) } : {}),
  };
}

function statJson(s: Stat): JsonValue {
  return toJsonValue(s);
}

/** The file's text: the header, then one node per line (see the file comment). */
export function formatExport(root: string, nodes: readonly ExportNode[]): string {
  const head = JSON.stringify({ format: EXPORT_FORMAT, version: EXPORT_VERSION, root });
  const lines = nodes.map((n) => JSON.stringify(n));
  return `${head.slice(0, -1)},"nodes":[\n${lines.join(',\n')}${lines.length > 0 ? '\n' : ''}]}\n`;
}

const KINDS = new Set<string>(['persistent', 'container', 'ttl', 'ephemeral']);

/** An export file's text checked and read, or the first reason it is not one. */
export function parseExport(text: string): ExportFile | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return `not JSON (${e instanceof Error ? e.message : String(e)})`;
  }
  if (typeof value !== 'object' || value === null) return 'not a zkwire export (no object)';
  const v = value as Record<string, unknown>;
  if (v['format'] !== EXPORT_FORMAT) return `not a zkwire export (format is ${JSON.stringify(v['format'])}, expected "${EXPORT_FORMAT}")`;
  if (v['version'] !== EXPORT_VERSION) return `export format version ${JSON.stringify(v['version'])} is not one this zkwire reads (it reads ${EXPORT_VERSION})`;
  const root = v['root'];
  if (typeof root !== 'string' || pathProblem(root) !== undefined) return `root ${JSON.stringify(root)} is not a ZooKeeper path`;
  if (!Array.isArray(v['nodes'])) return 'nodes is not a list';
  const nodes: ExportNode[] = [];
  for (const [i, n] of (v['nodes'] as unknown[]).entries()) {
    const problem = nodeProblem(root, n);
    if (problem !== undefined) return `node ${i}: ${problem}`;
    nodes.push(n as ExportNode);
  }
  return { format: EXPORT_FORMAT, version: EXPORT_VERSION, root, nodes };
}

function nodeProblem(root: string, n: unknown): string | undefined {
  if (typeof n !== 'object' || n === null) return 'not an object';
  const o = n as Record<string, unknown>;
  const path = o['path'];
  if (typeof path !== 'string') return 'path is not a string';
  if (path !== '' && pathProblem(absolutePath(root, path)) !== undefined) return `path ${JSON.stringify(path)} is not a relative ZooKeeper path`;
  if (typeof o['kind'] !== 'string' || !KINDS.has(o['kind'])) return `${JSON.stringify(path)}: kind must be one of ${[...KINDS].join(', ')}`;
  if (o['kind'] === 'ttl' && !(typeof o['ttl'] === 'number' && Number.isSafeInteger(o['ttl']) && o['ttl'] > 0)) return `${JSON.stringify(path)}: a ttl node needs ttl (ms > 0)`;
  if (typeof o['data'] !== 'string') return `${JSON.stringify(path)}: data is not a string`;
  if (o['encoding'] !== 'utf8' && o['encoding'] !== 'base64') return `${JSON.stringify(path)}: encoding must be utf8 or base64`;
  if (o['encoding'] === 'base64' && !/^[A-Za-z0-9+/]*={0,2}$/.test(o['data'])) return `${JSON.stringify(path)}: data is not base64`;
  if (!Array.isArray(o['acl'])) return `${JSON.stringify(path)}: acl is not a list`;
  for (const a of o['acl'] as unknown[]) {
    const e = a as Record<string, unknown> | null;
    if (typeof e !== 'object' || e === null || typeof e['scheme'] !== 'string' || typeof e['id'] !== 'string' || typeof e['perms'] !== 'string' || parsePerms(e['perms']) === undefined) {
      return `${JSON.stringify(path)}: an acl entry is not {scheme, id, perms: letters of cdrwa}`;
    }
  }
  return undefined;
}
