/**
 * What a CuratorCache holds: one entry per cached node (path, stat, data) and, for each cached node, the set of its
 * cached children, so removing a subtree costs the size of the subtree, not of the cache. Nothing else is kept, so
 * memory is bounded by the cached tree.
 */

import type { Stat } from '../../client/types.js';
import { parentPath } from '../common/nodes.js';

/** One cached node (Curator's ChildData). */
export interface ChildData {
  /** Full path of the node. */
  readonly path: string;
  readonly stat: Stat;
  readonly data: Uint8Array;
}

interface Entry {
  node: ChildData;
  /** The resync round that last saw the node on the server. */
  seen: number;
}

export class TreeStore {
  readonly #nodes = new Map<string, Entry>();
  readonly #kids = new Map<string, Set<string>>();

  get size(): number {
    return this.#nodes.size;
  }

  get(path: string): ChildData | undefined {
    return this.#nodes.get(path)?.node;
  }

  values(): IterableIterator<ChildData> {
    const entries = this.#nodes.values();
    return (function* () {
      for (const entry of entries) yield entry.node;
    })();
  }

  /** The cached children (full paths) of `path`. */
  childrenOf(path: string): readonly string[] {
    return [...(this.#kids.get(path) ?? [])];
  }

  /** Stores `node`, seen in round `round`. */
  put(node: ChildData, round: number, isRoot: boolean): void {
    const entry = this.#nodes.get(node.path);
    if (entry !== undefined) {
      entry.node = node;
      entry.seen = round;
      return;
    }
    this.#nodes.set(node.path, { node, seen: round });
    if (!isRoot) {
      const parent = parentPath(node.path);
      let kids = this.#kids.get(parent);
      if (kids === undefined) this.#kids.set(parent, (kids = new Set()));
      kids.add(node.path);
    }
  }

  /** Marks a cached node as seen in `round` without changing it. */
  touch(path: string, round: number): void {
    const entry = this.#nodes.get(path);
    if (entry !== undefined) entry.seen = round;
  }

  /** Removes `path` and everything cached below it; returns what was removed, deepest first. */
  removeSubtree(path: string): ChildData[] {
    const removed: ChildData[] = [];
    const visit = (p: string): void => {
      for (const kid of this.#kids.get(p) ?? []) visit(kid);
      this.#kids.delete(p);
      const entry = this.#nodes.get(p);
      if (entry !== undefined) {
        this.#nodes.delete(p);
        removed.push(entry.node);
      }
    };
    visit(path);
    const kids = this.#kids.get(parentPath(path));
    kids?.delete(path);
    if (kids?.size === 0) this.#kids.delete(parentPath(path));
    return removed;
  }

  /** Paths of cached nodes not seen since before round `round` (the tops of such subtrees are enough). */
  unseenSince(round: number): string[] {
    const out: string[] = [];
    for (const [path, entry] of this.#nodes) if (entry.seen < round) out.push(path);
    return out;
  }

  clear(): void {
    this.#nodes.clear();
    this.#kids.clear();
  }
}
