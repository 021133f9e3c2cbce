/**
 * Lock recipes recognised by their node names alone, as they appear on the wire:
 *
 *   Curator / zkwire mutex       <dir>/_c_<uuid>-lock-<seq>          (InterProcessMutex; zkwire writes the same)
 *   Curator / zkwire read/write  <dir>/_c_<uuid>-__READ__<seq>, <dir>/_c_<uuid>-__WRIT__<seq>
 *   Curator semaphore (v2)       <dir>/locks/_c_<uuid>-lock-<seq> (a mutex), <dir>/leases/_c_<uuid>-lease-<seq>
 *   kazoo Lock / WriteLock       <dir>/<uuid>__lock__<seq>
 *   kazoo ReadLock               <dir>/<uuid>__rlock__<seq>
 *   Curator / zkwire LeaderLatch <dir>/_c_<uuid>-latch-<seq>         (an election, not a lock: see leaders.ts)
 *
 * Curator's LeaderSelector is an InterProcessMutex on its path and kazoo's Election a kazoo Lock: their nodes are
 * those of the mutex and cannot be told apart from it by name (leaders.ts reports every mutex as a possible one).
 *
 * `<seq>` is ZooKeeper's ten-digit sequence suffix. A name that matches none of these is not a lock node.
 */

import { parseSequence } from '../../recipes/locks/predicate.js';
import type { LockKind } from './report.js';

export type LockMode = 'exclusive' | 'read' | 'write' | 'lease';

export interface LockNodeName {
  dir: string;
  name: string;
  /** Which library writes nodes like this. */
  recipe: string;
  kind: LockKind;
  mode: LockMode;
  seq: number;
}

interface Pattern {
  marker: string;
  recipe: (dir: string) => string;
  kind: LockKind;
  mode: LockMode;
  /** The directory's last segment must be this (semaphore leases). */
  dirName?: string;
}

const PATTERNS: readonly Pattern[] = [
  { marker: '__READ__', recipe: () => 'Curator read/write lock', kind: 'read-write', mode: 'read' },
  { marker: '__WRIT__', recipe: () => 'Curator read/write lock', kind: 'read-write', mode: 'write' },
  { marker: '__rlock__', recipe: () => 'kazoo read/write lock', kind: 'read-write', mode: 'read' },
  { marker: '__lock__', recipe: () => 'kazoo lock', kind: 'mutex', mode: 'exclusive' },
  { marker: 'latch-', recipe: () => 'Curator/zkwire LeaderLatch', kind: 'leader-latch', mode: 'exclusive' },
  { marker: 'lease-', recipe: () => 'Curator semaphore leases', kind: 'semaphore-leases', mode: 'lease', dirName: 'leases' },
  { marker: 'lock-', recipe: (dir) => (dir.endsWith('/locks') ? 'Curator semaphore (its mutex)' : 'Curator mutex'), kind: 'mutex', mode: 'exclusive' },
];

/** The lock recipe a node path belongs to, or undefined for any other node. */
export function recogniseLockNode(path: string): LockNodeName | undefined {
  const at = path.lastIndexOf('/');
  if (at < 0) return undefined;
  return recogniseLockName(at === 0 ? '/' : path.slice(0, at), path.slice(at + 1));
}

/** The same for child `name` of directory `dir`, as a children listing gives them (no path to build first). */
export function recogniseLockName(dir: string, name: string): LockNodeName | undefined {
  for (const p of PATTERNS) {
    const m = name.lastIndexOf(p.marker);
    if (m < 0) continue;
    if (p.dirName !== undefined && !dir.endsWith(`/${p.dirName}`)) continue;
    const seq = parseSequence(name.slice(m + p.marker.length));
    if (seq === undefined) continue;
    return { dir, name, recipe: p.recipe(dir), kind: p.kind, mode: p.mode, seq };
  }
  return undefined;
}

/** The lock's own rule: which of the (sequence-ordered) contenders hold it. */
export function holdersByRule(kind: LockKind, ordered: readonly { mode: LockMode }[]): number[] {
  if (ordered.length === 0) return [];
  if (kind === 'semaphore-leases') return ordered.map((_, i) => i);
  if (kind === 'mutex' || kind === 'leader-latch') return [0];
  // Read/write: readers ahead of the first writer share the lock; a writer holds only when it is first.
  const out: number[] = [];
  for (let i = 0; i < ordered.length; i++) {
    if (ordered[i]!.mode !== 'read') return i === 0 ? [0] : out;
    out.push(i);
  }
  return out;
}
