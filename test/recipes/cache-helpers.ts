/** Comparing a CuratorCache with a fresh read of the server (also used by the chaos suite), and its events in short. */

import type { ZooKeeperClient } from '../../src/node.js';
import type { CuratorCache, CuratorCacheEvent } from '../../src/recipes/cache/curator-cache.js';
import { ZooKeeperError } from '../../src/errors.js';

/** path → "czxid/mzxid/data as hex": what must match between a cache and the server. */
export type TreeImage = Map<string, string>;

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** The tree under `root` as the server has it now (empty when `root` does not exist). */
export async function serverTree(client: ZooKeeperClient, root: string): Promise<TreeImage> {
  const image: TreeImage = new Map();
  let level = [root];
  while (level.length > 0) {
    const next: string[] = [];
    await Promise.all(
      level.map(async (path) => {
        try {
          const [{ data, stat }, children] = await Promise.all([client.getData(path), client.getChildren(path)]);
          image.set(path, `${stat.czxid}/${stat.mzxid}/${hex(data)}`);
          for (const child of children) next.push(path === '/' ? `/${child}` : `${path}/${child}`);
        } catch (err) {
          if (!(err instanceof ZooKeeperError && err.code === 'NONODE')) throw err;
        }
      }),
    );
    level = next;
  }
  return image;
}

export function cacheTree(cache: CuratorCache): TreeImage {
  const image: TreeImage = new Map();
  for (const node of cache.stream()) image.set(node.path, `${node.stat.czxid}/${node.stat.mzxid}/${hex(node.data)}`);
  return image;
}

/** The differences between two images, for a readable failure ([] when equal). */
export function treeDiff(expected: TreeImage, actual: TreeImage): string[] {
  const out: string[] = [];
  for (const [path, value] of expected) {
    const got = actual.get(path);
    if (got !== value) out.push(`${path}: expected ${value}, got ${got ?? 'nothing'}`);
  }
  for (const path of actual.keys()) if (!expected.has(path)) out.push(`${path}: not on the server`);
  return out;
}

/** True when the cache holds exactly what the server holds under the cache's root. */
export async function converged(cache: CuratorCache, client: ZooKeeperClient): Promise<boolean> {
  return treeDiff(await serverTree(client, cache.path), cacheTree(cache)).length === 0;
}

/** A short, readable form of an event: `CREATED /a/b`, `CHANGED /a v2`, `DELETED /a`, `STALE` (paths below `root`). */
export function showEvent(root: string, e: CuratorCacheEvent): string {
  const rel = (p: string): string => p.slice(root.length) || '/';
  switch (e.type) {
    case 'nodeCreated':
      return `CREATED ${rel(e.node.path)}`;
    case 'nodeChanged':
      return `CHANGED ${rel(e.node.path)} ${new TextDecoder().decode(e.node.data)}`;
    case 'nodeDeleted':
      return `DELETED ${rel(e.oldNode.path)}`;
    case 'initialized':
    case 'stale':
    case 'resynced':
      return e.type;
    case 'unreadable':
      return `UNREADABLE ${rel(e.path)} ${e.error.code}`;
  }
}
