/**
 * What an import (or a copy) will do to each node, decided from the file and what the server holds now, before
 * anything is written; and the writes grouped into multi batches that fit the server's frame limit. Pure: the
 * state comes in as data (apply.ts reads it and runs the batches).
 *
 * Per node: absent → create it (its kind, data and ACL); present and the same → unchanged; present and different
 * → with overwrite, update what differs (data in the batch, the ACL by setACL before it, since a multi carries no
 * setACL), else leave it and say so. Ephemeral nodes are never created (they belong to a session). Because a node
 * that already matches counts as done, running the same import again after an interruption finishes the job.
 */

import type { ACL } from '../../protocol/index.js';
import { utf8Encode } from '../../protocol/utf8.js';
import { absolutePath, aclFromJson, dataFromExport, type ExportNode } from './export-format.js';
import type { NodeKind } from './node-kind.js';

/** A node as the server holds it now. */
export interface CurrentNode {
  readonly data: Uint8Array;
  readonly acl: readonly ACL[];
  readonly kind: NodeKind;
}

export type Difference = 'data' | 'acl' | 'kind';

export type PlanStep =
  | { readonly action: 'create'; readonly path: string; readonly node: ExportNode }
  | { readonly action: 'update'; readonly path: string; readonly node: ExportNode; readonly differs: readonly Difference[] }
  | { readonly action: 'unchanged'; readonly path: string }
  | { readonly action: 'left'; readonly path: string; readonly differs: readonly Difference[] }
  | { readonly action: 'skipped'; readonly path: string; readonly reason: string };

export interface PlanOptions {
  /** Where the file's root goes (default: the root it was exported from). */
  readonly to: string;
  readonly overwrite: boolean;
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

const aclKey = (acl: readonly ACL[]): string =>
  acl
    .map((a) => `${a.id.scheme}\u0000${a.id.id}\u0000${a.perms}`)
    .sort()
    .join('\u0001');

/** What differs between the file's node and the server's (the kind only as a note: a node's kind cannot change). */
export function differences(node: ExportNode, current: CurrentNode): Difference[] {
  const out: Difference[] = [];
  if (!sameBytes(dataFromExport(node), current.data)) out.push('data');
  if (aclKey(aclFromJson(node.acl)) !== aclKey(current.acl)) out.push('acl');
  if (node.kind !== current.kind && node.kind !== 'ephemeral') out.push('kind');
  return out;
}

/** The target path of every node of the file, parents before children. */
export function targets(nodes: readonly ExportNode[], to: string): { path: string; node: ExportNode }[] {
  // A parent's relative path is a prefix of its children's, so it sorts first.
  return [...nodes].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).map((node) => ({ path: absolutePath(to, node.path), node }));
}

/** ZooKeeper's own subtree: the server keeps it (quotas, the dynamic configuration) and refuses writes to it. */
export function isSystemPath(path: string): boolean {
  return path === '/zookeeper' || path.startsWith('/zookeeper/');
}

/** One step per node of the file. `current` holds the nodes that exist now (by target path). */
export function planImport(nodes: readonly ExportNode[], current: ReadonlyMap<string, CurrentNode>, opts: PlanOptions): PlanStep[] {
  return targets(nodes, opts.to).map(({ path, node }): PlanStep => {
    const now = current.get(path);
    if (isSystemPath(path)) return { action: 'skipped', path, reason: "ZooKeeper's own subtree, not written" };
    if (node.kind === 'ephemeral') {
      return now === undefined ? { action: 'skipped', path, reason: `ephemeral (owned by session ${node.owner ?? '?'}), not created` } : { action: 'unchanged', path };
    }
    if (now === undefined) return { action: 'create', path, node };
    const differs = differences(node, now);
    if (differs.length === 0) return { action: 'unchanged', path };
    // The kind cannot be changed in place: overwrite replaces data and ACL, and the kind difference is reported.
    const writable = differs.filter((d) => d !== 'kind');
    if (!opts.overwrite || writable.length === 0) return { action: 'left', path, differs };
    return { action: 'update', path, node, differs };
  });
}

/**
 * The request bytes one write of this node may take: its path, data and ACL, plus a generous allowance for the
 * request and multi headers (the exact measure is the client's; this only has to stay above it).
 */
export function writeSize(path: string, node: ExportNode): number {
  let acl = 0;
  for (const a of node.acl) acl += 12 + utf8Encode(a.scheme).length + utf8Encode(a.id).length;
  return 64 + utf8Encode(path).length + dataFromExport(node).length + acl;
}

/**
 * Half of jute.maxbuffer's default (1 MB): a server with a larger limit still takes it, and the estimate's errors
 * and the multi's reply stay far from the limit.
 */
export const DEFAULT_BATCH_BYTES = 512 * 1024;
/** Beyond this many ops a multi gains nothing and holds the server's request queue longer. */
export const MAX_BATCH_OPS = 500;

/** The create and update steps in order, cut into batches of at most `budget` bytes (a larger node alone). */
export function batches<T extends PlanStep & { action: 'create' | 'update' }>(steps: readonly T[], budget = DEFAULT_BATCH_BYTES): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const step of steps) {
    const size = writeSize(step.path, step.node);
    if (current.length > 0 && (bytes + size > budget || current.length >= MAX_BATCH_OPS)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(step);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** The steps that write (create or update), in plan order. */
export function writeSteps(plan: readonly PlanStep[]): (PlanStep & { action: 'create' | 'update' })[] {
  return plan.filter((s): s is PlanStep & { action: 'create' | 'update' } => s.action === 'create' || s.action === 'update');
}
