/**
 * Helpers over whole subtrees: mkdirp (create missing ancestors) and deleteRecursive. Like the other op modules
 * they take the ClientContext, so they go through the same validation, chroot and size checks as a plain create.
 */

import { isCode } from '../errors.js';
import type { ClientContext } from './context.js';
import * as reads from './node-reads.js';
import * as writes from './node-writes.js';
import { joinPath } from '../protocol/paths.js';
import { validatePath } from './paths.js';
import type { CallOptions, CreateOptions, MkdirpOptions } from './types.js';

/** All creates are issued at once (FIFO order puts parents first), so this costs one round trip. */
export async function mkdirp(ctx: ClientContext, path: string, options: MkdirpOptions): Promise<void> {
  validatePath(path, 'mkdirp');
  if (path === '/') return;
  const parts = path.split('/').slice(1);
  const creates: Promise<unknown>[] = [];
  for (let i = 1; i <= parts.length; i++) {
    const p = '/' + parts.slice(0, i).join('/');
    const last = i === parts.length;
    const opts: CreateOptions = {
      mode: options.containers === true && !last ? 'container' : 'persistent',
      acl: options.acl,
      signal: options.signal,
    };
    creates.push(
      writes.create(ctx, p, last ? (options.data ?? null) : null, opts).catch((e: unknown) => {
        if (!isCode(e, 'NODEEXISTS')) throw e;
      }),
    );
  }
  const settled = await Promise.allSettled(creates);
  const failure = settled.find((s) => s.status === 'rejected');
  if (failure !== undefined) throw (failure as PromiseRejectedResult).reason;
}

async function childrenOf(ctx: ClientContext, path: string, options: CallOptions): Promise<string[]> {
  const r = await reads.getChildren(ctx, path, options);
  return Array.isArray(r) ? r : r.children;
}

export async function deleteRecursive(ctx: ClientContext, path: string, options: CallOptions): Promise<void> {
  validatePath(path, 'deleteRecursive');
  for (let attempt = 0; ; attempt++) {
    let children: string[];
    try {
      children = await childrenOf(ctx, path, options);
    } catch (e) {
      if (isCode(e, 'NONODE')) return;
      throw e;
    }
    await Promise.all(children.map((c) => deleteRecursive(ctx, joinPath(path, c), options)));
    if (path === '/') return;
    try {
      await writes.deleteNode(ctx, path, options);
      return;
    } catch (e) {
      if (isCode(e, 'NONODE')) return;
      // Someone added a child meanwhile: go round again (a few times, then report it).
      if (isCode(e, 'NOTEMPTY') && attempt < 5) continue;
      throw e;
    }
  }
}
