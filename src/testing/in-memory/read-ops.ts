/**
 * The in-memory server's reads, as ZooKeeper's FinalRequestProcessor answers them: the node (NONODE), then the
 * permission (NOAUTH), then the watch. `exists` sets its watch before looking, so it arms one on a missing node
 * (to fire NodeCreated); getData and getChildren on a missing node arm nothing. On 3.9 `exists` checks READ on a
 * node that is there first (NOAUTH, no watch set); 3.8 answers it whatever the ACL.
 */

import { Perms } from '../../protocol/opcodes.js';
import type { GetACLResponse } from '../../protocol/records/acl-ops.js';
import type { Stat } from '../../protocol/records/stat.js';
import { checkAcl } from './acl.js';
import type { ZNode } from './data-tree.js';
import { fail } from './keeper-error.js';
import type { RequestContext } from './request-context.js';

function readable(ctx: RequestContext, path: string | null, perm: number = Perms.READ): ZNode {
  const node = (path === null ? undefined : ctx.tree.get(path)) ?? fail('NONODE');
  checkAcl(node.acl, perm, ctx.identities, ctx.superUser);
  return node;
}

export function exists(ctx: RequestContext, path: string | null, watch: boolean): { stat: Stat } {
  if (path === null || path.includes('\0')) fail('BADARGUMENTS');
  const there = ctx.tree.get(path);
  if (there !== undefined && ctx.behaviour.existsChecksRead) checkAcl(there.acl, Perms.READ, ctx.identities, ctx.superUser);
  if (watch) ctx.watches.addDataWatch(path, ctx.watcher);
  const node = there ?? fail('NONODE');
  return { stat: ctx.tree.statOf(node) };
}

export function getData(ctx: RequestContext, path: string | null, watch: boolean): { data: Uint8Array | null; stat: Stat } {
  const node = readable(ctx, path);
  if (watch) ctx.watches.addDataWatch(path!, ctx.watcher);
  return { data: node.data, stat: ctx.tree.statOf(node) };
}

export function getChildren(ctx: RequestContext, path: string | null, watch: boolean): { children: string[]; stat: Stat } {
  const node = readable(ctx, path);
  if (watch) ctx.watches.addChildWatch(path!, ctx.watcher);
  return { children: [...node.children], stat: ctx.tree.statOf(node) };
}

/** getACL needs READ or ADMIN (ZOOKEEPER-1392). */
export function getAcl(ctx: RequestContext, path: string | null): GetACLResponse {
  const node = readable(ctx, path, Perms.READ | Perms.ADMIN);
  return { acl: node.acl.map((a) => ({ perms: a.perms, id: { ...a.id } })), stat: ctx.tree.statOf(node) };
}

export function getAllChildrenNumber(ctx: RequestContext, path: string | null): { totalNumber: number } {
  readable(ctx, path);
  return { totalNumber: ctx.tree.countDescendants(path!) };
}

/** The session's ephemeral nodes whose path starts with `prefix` (a plain string prefix, as on the server). */
export function getEphemerals(ctx: RequestContext, prefix: string | null): { ephemerals: string[] } {
  return { ephemerals: ctx.tree.ephemeralsOf(ctx.sessionId).filter((p) => p.startsWith(prefix ?? '/')) };
}
