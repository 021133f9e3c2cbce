/** The write operations on one node: create, delete, setData, setACL. */

import { clientError, errorFromServer, isCode } from '../errors.js';
import { ErrorCode } from '../protocol/error-codes.js';
import type { Stat } from '../protocol/index.js';
import type { ACL } from './acl.js';
import { checkAcl, checkVersion } from './checks.js';
import { guard, ok, type ClientContext } from './context.js';
import { createOp } from './create-mode.js';
import { createRequest } from './create-request.js';
import { createRequestSize, setDataRequestSize } from './request-size.js';
import { AGAIN, guaranteed } from './guaranteed-delete.js';
import { gone, readBack } from './idempotent.js';
import type { Recover } from './retry-call.js';
import type { CallOptions, CreateOptions, Created, Data, DeleteOptions, VersionOptions } from './types.js';

export function create(ctx: ClientContext, path: string, data: Data | null, options: CreateOptions): Promise<string | Created> {
  return guard(() => prepareCreate(ctx, path, data, options)());
}

/**
 * A create with every argument checked (BAD_ARGUMENT thrown now), ready to queue: what `parents` checks before
 * any parent's create goes out.
 */
export function prepareCreate(ctx: ClientContext, path: string, data: Data | null, options: CreateOptions): () => Promise<string | Created> {
  const op = 'create';
  const { mode, body } = createRequest(ctx, op, path, data, options);
  const withStat = options.stat === true;
  const length = body.data?.length ?? 0;
  ctx.checkRequestSize(op, path, length, () => createRequestSize(body.path, length, body.acl, mode.ttl));
  // Ours: our data at version 0, and for an ephemeral, owned by the session we are on now.
  const recover = options.idempotent === true
    ? readBack(ctx, 'NODEEXISTS', path, body.path, body.data, (stat) =>
        stat.version !== 0 || (mode.ephemeral && stat.ephemeralOwner !== ctx.session.sessionId) ? undefined : withStat ? { path, stat } : path)
    : undefined;
  return () =>
    ctx.send(op, path, createOp(mode, withStat), body, options, (reply) => {
      if (mode.ttl && reply.err === ErrorCode.UNIMPLEMENTED) {
        throw errorFromServer(reply.err, op, path, 'TTL nodes need the server started with zookeeper.extendedTypesEnabled=true');
      }
      ok(reply, op, path);
      const res = reply.body;
      const created = ctx.chroot.toClient(res.path ?? '');
      if (!withStat) return created;
      if (!('stat' in res)) throw clientError('PROTOCOL_ERROR', 'create2 reply without a Stat', { op, path });
      return { path: created, stat: res.stat };
    }, undefined, recover);
}

export function deleteNode(ctx: ClientContext, path: string, options: DeleteOptions): Promise<void> {
  return guard(() => {
    const body = { path: ctx.serverPath(path, 'delete'), version: checkVersion(options.version, 'delete', path) };
    const send = (o: CallOptions, recover: Recover<void> | undefined): Promise<void> =>
      ctx.send('delete', path, 'delete', body, o, (reply) => ok(reply, 'delete', path), undefined, recover);
    if (options.guaranteed === true) return guaranteed(ctx.sessions, () => send({ ...options, retry: AGAIN }, gone).catch((e: unknown) => {
      if (!isCode(e, 'NONODE')) throw e;
    }));
    return send(options, options.idempotent === true ? gone : undefined);
  });
}

export function setData(ctx: ClientContext, path: string, data: Data, options: VersionOptions): Promise<Stat> {
  return guard(() => {
    const body = { path: ctx.serverPath(path, 'setData'), data: ctx.data(data, 'setData', path), version: checkVersion(options.version, 'setData', path) };
    ctx.checkRequestSize('setData', path, body.data.length, () => setDataRequestSize(body.path, body.data.length));
    // A versioned write that already went through left our data one version on.
    const recover = options.idempotent === true
      ? readBack(ctx, 'BADVERSION', path, body.path, body.data, (stat) => (stat.version === body.version + 1 ? stat : undefined))
      : undefined;
    return ctx.send('setData', path, 'setData', body, options, (reply) => {
      ok(reply, 'setData', path);
      return reply.body.stat;
    }, undefined, recover);
  });
}

export function setACL(ctx: ClientContext, path: string, acl: readonly ACL[], options: VersionOptions): Promise<Stat> {
  return guard(() => {
    const body = { path: ctx.serverPath(path, 'setACL'), acl: checkAcl(acl, 'setACL', path), version: checkVersion(options.version, 'setACL', path) };
    return ctx.send('setACL', path, 'setACL', body, options, (reply) => {
      ok(reply, 'setACL', path);
      return reply.body.stat;
    }, undefined, options.idempotent === true ? () => undefined : undefined);
  });
}
