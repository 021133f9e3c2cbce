/**
 * The in-memory server's writes, checked in the order ZooKeeper's PrepRequestProcessor checks them, so the same
 * bad request fails with the same error: path, ACL, the node, permission, version. Each returns its reply body
 * and the change it made; the caller fires the change's watches once the whole transaction commits.
 */

import { CreateFlags, Perms } from '../../protocol/opcodes.js';
import { OpCode } from '../../protocol/opcodes.js';
import type { SetACLRequest } from '../../protocol/records/acl-ops.js';
import type { Create2Response, CreateRequest } from '../../protocol/records/create.js';
import type { CheckVersionRequest, DeleteRequest, SetDataRequest } from '../../protocol/records/node-data.js';
import type { Stat } from '../../protocol/records/stat.js';
import { parentPath, pathProblem } from '../../protocol/paths.js';
import { checkAcl, fixupAcl } from './acl.js';
import { CONTAINER_OWNER, MAX_TTL_MS, sessionOwner, SPECIAL_PATHS, ttlOwner, type Change, type ZNode } from './data-tree.js';
import { fail } from './keeper-error.js';
import type { WriteContext } from './request-context.js';

/** A write's outcome: the reply body (if any) and the change to commit. */
export interface WriteResult<T> {
  readonly body: T;
  readonly change: Change;
}

function validPath(path: string | null): string {
  if (path === null || pathProblem(path) !== undefined) fail('BADARGUMENTS');
  return path;
}

function existing(ctx: WriteContext, path: string): ZNode {
  return ctx.tree.get(path) ?? fail('NONODE');
}

/** checkAndIncVersion: -1 matches any version. */
function checkVersion(current: number, expected: number): void {
  if (expected !== -1 && expected !== current) fail('BADVERSION');
}

/** Java's %010d, a negative counter included (a sign, then nine digits). */
function sequenceSuffix(n: number): string {
  return n < 0 ? `-${String(-n).padStart(9, '0')}` : String(n).padStart(10, '0');
}

/**
 * create (1), create2 (15), createContainer (19), createTTL (21). The opcode decides container and TTL, as on the
 * server: a container mode through create is a persistent node, a TTL mode needs createTTL and a valid ttl.
 */
export function create(ctx: WriteContext, opcode: number, req: CreateRequest, ttl = -1n): WriteResult<Create2Response> {
  const flags = req.flags;
  if (flags < CreateFlags.persistent || flags > CreateFlags.persistentSequentialWithTTL) fail('BADARGUMENTS');
  const isTtl = flags === CreateFlags.persistentWithTTL || flags === CreateFlags.persistentSequentialWithTTL;
  const sequential = flags === CreateFlags.persistentSequential || flags === CreateFlags.ephemeralSequential || flags === CreateFlags.persistentSequentialWithTTL;
  const ephemeral = flags === CreateFlags.ephemeral || flags === CreateFlags.ephemeralSequential;
  // EphemeralType.validateTTL: a TTL mode needs 0 < ttl <= max, any other mode no ttl at all.
  if (isTtl ? opcode !== OpCode.createTTL || ttl <= 0n || ttl > BigInt(MAX_TTL_MS) : ttl >= 0n) fail('BADARGUMENTS');
  if (opcode === OpCode.createContainer && flags !== CreateFlags.container) fail('BADARGUMENTS');
  let path = req.path;
  if (path === null || path.lastIndexOf('/') === -1 || path.includes('\0')) fail('BADARGUMENTS');
  const acl = fixupAcl(req.acl, ctx.identities);
  const parent = existing(ctx, parentPath(path));
  checkAcl(parent.acl, Perms.CREATE, ctx.identities, ctx.superUser);
  if (sequential) path += sequenceSuffix(parent.sequence);
  validPath(path);
  if (ctx.tree.get(path) !== undefined) fail('NODEEXISTS');
  if (sessionOwner(parent.stat.ephemeralOwner) !== undefined) fail('NOCHILDRENFOREPHEMERALS');
  const owner = ephemeral ? ctx.sessionId : opcode === OpCode.createContainer ? CONTAINER_OWNER : isTtl ? ttlOwner(Number(ttl)) : 0n;
  const change = ctx.tree.create(path, req.data, acl, owner, ctx.zxid, ctx.time);
  return { body: { path, stat: ctx.tree.statOf(ctx.tree.get(path)!) }, change };
}

/** delete (2), and the reaper's deleteContainer. Special nodes ("/", "/zookeeper", …) are BADARGUMENTS. */
export function remove(ctx: WriteContext, req: DeleteRequest): WriteResult<undefined> {
  const path = req.path;
  if (path === null || path.lastIndexOf('/') === -1 || path.includes('\0') || SPECIAL_PATHS.has(path)) fail('BADARGUMENTS');
  const parent = existing(ctx, parentPath(path));
  checkAcl(parent.acl, Perms.DELETE, ctx.identities, ctx.superUser);
  const node = existing(ctx, path);
  checkVersion(node.stat.version, req.version);
  if (node.children.size > 0) fail('NOTEMPTY');
  return { body: undefined, change: ctx.tree.delete(path, ctx.zxid) };
}

/** setData (5). */
export function setData(ctx: WriteContext, req: SetDataRequest): WriteResult<{ stat: Stat }> {
  const path = validPath(req.path);
  const node = existing(ctx, path);
  checkAcl(node.acl, Perms.WRITE, ctx.identities, ctx.superUser);
  checkVersion(node.stat.version, req.version);
  const change = ctx.tree.setData(path, req.data, ctx.zxid, ctx.time);
  return { body: { stat: ctx.tree.statOf(node) }, change };
}

/** setACL (7): the version checked is the aversion. */
export function setAcl(ctx: WriteContext, req: SetACLRequest): WriteResult<{ stat: Stat }> {
  const path = validPath(req.path);
  const acl = fixupAcl(req.acl, ctx.identities);
  const node = existing(ctx, path);
  checkAcl(node.acl, Perms.ADMIN, ctx.identities, ctx.superUser);
  checkVersion(node.stat.aversion, req.version);
  const change = ctx.tree.setACL(path, acl);
  return { body: { stat: ctx.tree.statOf(node) }, change };
}

/** check (13): changes nothing; fails unless the node is at the version. */
export function check(ctx: WriteContext, req: CheckVersionRequest): WriteResult<undefined> {
  const path = validPath(req.path);
  const node = existing(ctx, path);
  checkAcl(node.acl, Perms.READ, ctx.identities, ctx.superUser);
  checkVersion(node.stat.version, req.version);
  return { body: undefined, change: { events: [], undo: () => {} } };
}
