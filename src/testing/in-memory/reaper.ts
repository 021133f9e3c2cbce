/**
 * Which nodes ZooKeeper's ContainerManager would delete now: containers that have had children and have none
 * left (cversion > 0), and TTL nodes with no children whose last change is older than their TTL. The server runs
 * this every `containerCheckIntervalMs` (znode.container.checkIntervalMs, 60 s by default) and deletes each in a
 * transaction of its own.
 */

import { ttlOf, type DataTree } from './data-tree.js';

export function reapCandidates(tree: DataTree, now: number): string[] {
  const out: string[] = [];
  for (const path of tree.containers()) {
    const node = tree.get(path);
    if (node !== undefined && node.children.size === 0 && node.stat.cversion > 0) out.push(path);
  }
  for (const path of tree.ttlNodes()) {
    const node = tree.get(path);
    if (node === undefined || node.children.size > 0) continue;
    const ttl = ttlOf(node.stat.ephemeralOwner) ?? 0;
    if (ttl !== 0 && now - Number(node.stat.mtime) > ttl) out.push(path);
  }
  return out;
}
