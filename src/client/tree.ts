/**
 * Helpers over whole subtrees: mkdirp (a create with `parents`) and deleteRecursive. Like the other op modules
 * they take the ClientContext, so they go through the same validation, chroot and size checks as a plain create.
 */

import { isCode } from '../errors.js';
import type { ClientContext } from './context.js';
import { create } from './create.js';
import * as reads from './node-reads.js';
import * as writes from './node-writes.js';
import { joinPath } from '../protocol/paths.js';
import { validatePath } from './paths.js';
import type { CallOptions, MkdirpOptions } from './types.js';

/** A create with `parents` (one round trip: see create.ts) that takes an existing node as done. */
export async function mkdirp(ctx: ClientContext, path: string, options: MkdirpOptions): Promise<void> {
  validatePath(path, 'mkdirp');
  if (path === '/') return;
  const parents = options.containers === true ? 'containers' : true;
  try {
    await create(ctx, path, options.data ?? null, { parents, acl: options.acl, signal: options.signal });
  } catch (e) {
    if (!isCode(e, 'NODEEXISTS')) throw e;
  }
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
