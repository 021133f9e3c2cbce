/**
 * `create`'s conveniences over the one-request create of node-writes.ts: `parents` (missing ancestors queued in
 * front of the node, one round trip; mkdirp is this too), `orSetData` (Curator's create, then setData on
 * NODEEXISTS) and `protected` (Curator's protection mode: a name that is found again after a lost reply).
 */

import { clientError, isCode, isRetryable, type ZooKeeperError } from '../errors.js';
import type { Stat } from '../protocol/index.js';
import { joinPath, parentPath } from '../protocol/paths.js';
import { findProtectedChild, newProtectedId, protectPath } from '../protocol/protected-names.js';
import { guard, type ClientContext } from './context.js';
import type { CreateMode } from './create-mode.js';
import { checkServerFeatures } from './feature-check.js';
import { noRetry } from '../session/retry-policy.js';
import * as reads from './node-reads.js';
import * as writes from './node-writes.js';
import { validatePath } from './paths.js';
import type { CreateOptions, Created, Data } from './types.js';

/**
 * How many lost replies in a row a protected create outlasts (each waits for the link to come back, so the
 * client's `reconnect` policy paces them) before it fails with the last loss.
 */
const MAX_LOST_REPLIES = 10;

export function create(ctx: ClientContext, path: string, data: Data | null, options: CreateOptions): Promise<string | Created> {
  const { orSetData, protected: protect } = options;
  // Without the two, a create is createWithParents: synchronous up to its request (call order is wire order).
  if (orSetData === undefined && protect === undefined) return guard(() => createWithParents(ctx, path, data, options));
  return guard(() => {
    const sequential = options.mode?.endsWith('-sequential');
    validatePath(path, 'create', sequential);
    if (orSetData && (sequential || protect)) throw badCreate(path, 'orSetData takes no sequential or protected name');
    if (!protect) return orSetData ? createOrSet(ctx, path, data, options) : createWithParents(ctx, path, data, options);
    if (protect !== true && !UUID.test(protect)) throw badCreate(path, `protected: true or a uuid, got ${JSON.stringify(protect)}`);
    return createProtected(ctx, path, data, options, protect === true ? newProtectedId() : protect.toLowerCase());
  });
}

const UUID = /^[\da-f]{8}(-[\da-f]{4}){3}-[\da-f]{12}$/i;

function badCreate(path: string, why: string): ZooKeeperError {
  return clientError('BAD_ARGUMENT', why, { op: 'create', path });
}

/**
 * The create, behind the creates of its missing ancestors when `parents` asks: all queued together, root first,
 * so they leave in one write and the server makes each parent before its child. A parent's own answer matters only
 * when the node's create fails NONODE: an existing parent may well answer NOAUTH (the server checks the
 * grandparent's ACL first). With `parents: 'containers'`, a `container` node itself follows its parents' mode.
 */
function createWithParents(ctx: ClientContext, path: string, data: Data | null, options: CreateOptions): Promise<string | Created> {
  const { parents, signal } = options;
  if (!parents) return writes.create(ctx, path, data, options);
  validatePath(path, 'create', options.mode?.endsWith('-sequential'));
  const has = ctx.creates.containers === false ? false : ctx.sessions.features.snapshot(ctx.session.serverVersion).containers;
  // Not known yet: ask first (once per client), as a 3.4 server answers a container create by closing the link.
  if (parents === 'containers' && has === undefined) return checkServerFeatures(ctx, { signal }).then(() => createWithParents(ctx, path, data, options));
  const mode: CreateMode = parents === 'containers' && has ? 'container' : 'persistent';
  // The node's own request is checked before any parent's goes out.
  const send = writes.prepareCreate(ctx, path, data, options.mode === 'container' ? { ...options, mode } : options);
  const ancestors: string[] = [];
  for (let p = parentPath(path); p !== '/'; p = parentPath(p)) ancestors.unshift(p);
  const failures = ancestors.map((p) => writes.create(ctx, p, null, { mode, acl: options.acl, signal }).then(() => undefined, (e: unknown) => e));
  return send().catch(async (e: unknown) => {
    if (isCode(e, 'NONODE')) for (const failure of await Promise.all(failures)) if (failure && !isCode(failure, 'NODEEXISTS')) throw failure;
    throw e;
  });
}

/** Create, or setData when the node exists; a node deleted between the two is created again (twice at most). */
async function createOrSet(ctx: ClientContext, path: string, data: Data | null, options: CreateOptions): Promise<string | Created> {
  for (let tries = 0; ; tries++) {
    try {
      return await createWithParents(ctx, path, data, options);
    } catch (e) {
      if (!isCode(e, 'NODEEXISTS')) throw e;
    }
    try {
      const stat = await writes.setData(ctx, path, data ?? '', options);
      return options.stat ? { path, stat } : path;
    } catch (e) {
      if (!isCode(e, 'NONODE') || tries > 1) throw e;
    }
  }
}

/**
 * Creates `<parent>/_c_<uuid>-<name>`. A reply lost with the connection leaves the outcome unknown: once
 * connected again, the parent is listed for the uuid, and the node found is ours (an ephemeral one only if this
 * session owns it: one an expired session made goes with it); else the create is made again under the same name.
 */
function createProtected(ctx: ClientContext, path: string, data: Data | null, options: CreateOptions, id: string): Promise<string | Created> {
  const target = protectPath(path, id);
  const { mode, acl, ttl, stat, parents, signal } = options;
  // No retry underneath (the client's `retry` option): a resent create of this name would meet our own node as
  // NODEEXISTS, where the loop below finds it as ours. Named fields, not a spread of the caller's options: V8 copies
  // those at several times the cost of the whole create's own work (sync-create figures in the commit).
  const once = { mode, acl, ttl, stat, parents, signal, retry: noRetry } as CreateOptions;
  const send = (): Promise<string | Created> => createWithParents(ctx, target, data, once);
  // The first try is the create itself, with no layer between (every lock acquire makes one; bench:acquire).
  return send().catch(async (e: unknown) => {
    const dir = parentPath(target);
    for (let lost = 1; ; lost++) {
      // The outcome is unknown only after a lost link or an expired session (the client opening a new one).
      if (!(isRetryable(e) || (isCode(e, 'SESSIONEXPIRED') && !ctx.sessions.terminal)) || lost > MAX_LOST_REPLIES) throw e;
      try {
        await ctx.sessions.waitConnected(signal);
        const children = (await reads.getChildren(ctx, dir, { signal }).catch((e: unknown) => (isCode(e, 'NONODE') ? [] : Promise.reject(e)))) as string[];
        const name = findProtectedChild(children, id);
        const found = name && joinPath(dir, name);
        const now = found && ((await reads.exists(ctx, found, { signal })) as Stat | null);
        if (now && (!mode?.startsWith('ephemeral') || now.ephemeralOwner === ctx.session.sessionId)) return stat ? { path: found, stat: now } : found;
        return await send();
      } catch (next) {
        e = next;
      }
    }
  });
}
