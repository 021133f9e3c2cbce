/**
 * Helpers over whole subtrees, built only on the public client API: mkdirp (create missing ancestors)
 * and deleteRecursive.
 */

import { ZooKeeperError } from '../errors.js';
import type { ZooKeeperClient } from '../client.js';
import { joinPath, validatePath } from './paths.js';
import type { CallOptions, CreateOptions, MkdirpOptions } from './types.js';

function isCode(e: unknown, code: string): boolean {
  return e instanceof ZooKeeperError && e.code === code;
}

/** All creates are issued at once (FIFO order puts parents first), so this costs one round trip. */
export async function mkdirp(client: ZooKeeperClient, path: string, options: MkdirpOptions): Promise<void> {
  validatePath(path, 'mkdirp');
  if (path === '/') return;
  const parts = path.split('/').slice(1);
  const creates: Promise<unknown>[] = [];
  for (let i = 1; i <= parts.length; i++) {
    const p = '/' + parts.slice(0, i).join('/');
    const last = i === parts.length;
    const opts: CreateOptions & { stat?: false } = {
      mode: options.containers === true && !last ? 'container' : 'persistent',
      ...(options.acl === undefined ? {} : { acl: options.acl }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    };
    creates.push(
      client.create(p, last ? (options.data ?? null) : null, opts).catch((e: unknown) => {
        if (!isCode(e, 'NODEEXISTS')) throw e;
      }),
    );
  }
  const settled = await Promise.allSettled(creates);
  const failure = settled.find((s) => s.status === 'rejected');
  if (failure !== undefined) throw (failure as PromiseRejectedResult).reason;
}

export async function deleteRecursive(client: ZooKeeperClient, path: string, options: CallOptions): Promise<void> {
  validatePath(path, 'deleteRecursive');
  for (let attempt = 0; ; attempt++) {
    let children: string[];
    try {
      children = await client.getChildren(path, options);
    } catch (e) {
      if (isCode(e, 'NONODE')) return;
      throw e;
    }
    await Promise.all(children.map((c) => deleteRecursive(client, joinPath(path, c), options)));
    if (path === '/') return;
    try {
      await client.delete(path, options);
      return;
    } catch (e) {
      if (isCode(e, 'NONODE')) return;
      // Someone added a child meanwhile: go round again (a few times, then report it).
      if (isCode(e, 'NOTEMPTY') && attempt < 5) continue;
      throw e;
    }
  }
}
