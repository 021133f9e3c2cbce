/**
 * Node helpers the recipes share: containers for recipe directories, protected sequential creates that survive a
 * lost reply, Curator's sequence ordering, and path checks. Protection names (`_c_<uuid>-`) are the locks' ones.
 */

import type { ZooKeeperClient } from '../../client.js';
import type { CreateMode } from '../../client/create-mode.js';
import type { Created } from '../../client/types.js';
import { isRetryable } from '../../errors.js';
import { findProtectedChild, isValidLockPath, joinPath, newProtectedId, protectedPath } from '../locks/naming.js';
import { badArgument } from './errors.js';
import { isCode } from '../../errors.js';

export { joinPath, nodeName, parentPath } from '../locks/naming.js';

/** Refuses a path ZooKeeper would refuse (or the root) before anything is sent. */
export function checkRecipePath(path: string, what: string): void {
  if (typeof path !== 'string' || !isValidLockPath(path) || path === '/') {
    throw badArgument(what, String(path), 'not a valid absolute node path (and not the root)');
  }
}

/**
 * Creates `path` and its missing ancestors as containers, as Curator's creatingParentContainersIfNeeded does, so
 * the server removes a recipe directory once it is empty. All creates go out together (one round trip).
 */
export async function ensureContainers(client: ZooKeeperClient, path: string): Promise<void> {
  const parts = path.split('/').slice(1);
  const creates = parts.map((_, i) =>
    client.create('/' + parts.slice(0, i + 1).join('/'), null, { mode: 'container' }).then(
      () => undefined,
      (err: unknown) => {
        if (!isCode(err, 'NODEEXISTS')) throw err;
      },
    ),
  );
  const failed = (await Promise.allSettled(creates)).find((r) => r.status === 'rejected');
  if (failed !== undefined) throw (failed as PromiseRejectedResult).reason;
}

/**
 * Creates `<parent>/_c_<uuid>-<name>` (sequential), the parent as a container when missing. When the reply is
 * lost (CONNECTIONLOSS), the outcome is unknown: after reconnecting, the parent is listed for our uuid, so the node
 * is found (or known absent and created again) and never left behind as an orphan. Rejects with the session's end
 * or a non-retryable error.
 */
export async function createProtectedSequential(
  client: ZooKeeperClient,
  parent: string,
  name: string,
  data: Uint8Array,
  mode: CreateMode = 'ephemeral-sequential',
  ttlMs?: number,
): Promise<Created> {
  const id = newProtectedId();
  const path = protectedPath(parent, id, name);
  let unsure = false;
  for (;;) {
    try {
      if (unsure) {
        await client.waitConnected();
        const found = findProtectedChild(await childrenOrEmpty(client, parent), id);
        if (found !== undefined) {
          const full = joinPath(parent, found);
          const stat = await client.exists(full);
          if (stat !== null) return { path: full, stat };
        }
        unsure = false;
      }
      return await client.create(path, data, { mode, stat: true, ...(ttlMs === undefined ? {} : { ttl: ttlMs }) });
    } catch (err) {
      if (isCode(err, 'NONODE')) await ensureContainers(client, parent).catch(() => undefined);
      else if (isRetryable(err)) unsure = true;
      else throw err;
    }
  }
}

export async function childrenOrEmpty(client: ZooKeeperClient, path: string): Promise<string[]> {
  try {
    return await client.getChildren(path);
  } catch (err) {
    if (isCode(err, 'NONODE')) return [];
    throw err;
  }
}

/**
 * The part of a child name Curator sorts by (StandardLockInternalsDriver.fixForSorting): what follows the last
 * `lockName`, i.e. the sequence number; names without it sort by their whole text.
 */
export function sortKey(child: string, lockName: string): string {
  const at = child.lastIndexOf(lockName);
  return at < 0 ? child : child.slice(at + lockName.length);
}

/** Children in Curator's order for `lockName` nodes: by sequence text, the holder or leader first. */
export function sortSequential(children: readonly string[], lockName: string): string[] {
  return [...children].sort((a, b) => {
    const ka = sortKey(a, lockName);
    const kb = sortKey(b, lockName);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
}
