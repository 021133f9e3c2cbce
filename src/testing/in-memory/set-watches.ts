/**
 * setWatches (101) and setWatches2 (105): the watches a client re-registers after a reconnect, relative to the
 * last zxid it saw (DataTree.setWatches). A watch whose node changed since then fires at once instead of being
 * armed: a data watch on a node deleted since (NodeDeleted) or changed since (mzxid later: NodeDataChanged), an
 * exists watch on a node that exists now (NodeCreated), a child watch on a node deleted (NodeDeleted) or whose
 * children changed since (pzxid later: NodeChildrenChanged). Persistent watches are simply armed again.
 */

import { EventType } from '../../protocol/opcodes.js';
import type { SetWatches, SetWatches2 } from '../../protocol/records/watches.js';
import type { RequestContext } from './request-context.js';

export function setWatches(ctx: RequestContext, req: SetWatches & Partial<SetWatches2>): void {
  const { tree, watches, watcher } = ctx;
  const since = req.relativeZxid!;
  for (const path of req.dataWatches ?? []) {
    const node = tree.get(path);
    if (node === undefined) watcher.notify(EventType.NodeDeleted, path);
    else if (node.stat.mzxid > since) watcher.notify(EventType.NodeDataChanged, path);
    else watches.addDataWatch(path, watcher);
  }
  for (const path of req.existWatches ?? []) {
    if (tree.get(path) !== undefined) watcher.notify(EventType.NodeCreated, path);
    else watches.addDataWatch(path, watcher);
  }
  for (const path of req.childWatches ?? []) {
    const node = tree.get(path);
    if (node === undefined) watcher.notify(EventType.NodeDeleted, path);
    else if (node.stat.pzxid > since) watcher.notify(EventType.NodeChildrenChanged, path);
    else watches.addChildWatch(path, watcher);
  }
  for (const path of req.persistentWatches ?? []) watches.addPersistent(path, watcher, false);
  for (const path of req.persistentRecursiveWatches ?? []) watches.addPersistent(path, watcher, true);
}
