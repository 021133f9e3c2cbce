/**
 * The one CreateRequest builder, for a create alone (node-writes.ts) and a create in a multi (multi-wire.ts), so
 * both check their arguments alike and in the same order.
 */

import type { CreateRequest } from '../protocol/records/create.js';
import type { ACL } from './acl.js';
import { checkAcl } from './checks.js';
import type { ClientContext } from './context.js';
import { checkTtl, createModeInfo, type CreateMode, type CreateModeInfo } from './create-mode.js';
import type { Data } from './types.js';

/** A create's own arguments, as `create` and `Op.create` take them. */
export interface CreateArgs {
  readonly mode?: CreateMode | undefined;
  readonly acl?: readonly ACL[] | undefined;
  readonly ttl?: number | undefined;
}

/**
 * The CreateRequest of a create (alone or in a multi) and its mode, every argument checked with BAD_ARGUMENT
 * before anything is sent, in this order: mode, path, data (size limit), ttl, ACL.
 */
export function createRequest(
  ctx: ClientContext,
  op: string,
  path: string,
  data: Data | null | undefined,
  args: CreateArgs,
): { mode: CreateModeInfo; body: CreateRequest & { path: string; acl: ACL[]; ttl?: bigint } } {
  const mode = createModeInfo(args.mode ?? 'persistent', op, path);
  const server = ctx.serverPath(path, op, mode.sequential);
  const bytes = data === undefined || data === null ? null : ctx.data(data, op, path);
  const ttl = checkTtl(mode, args.ttl, op, path);
  const body = { path: server, data: bytes, acl: checkAcl(args.acl ?? ctx.aclFor(path), op, path), flags: mode.flags };
  return { mode, body: ttl === undefined ? body : { ...body, ttl } };
}
