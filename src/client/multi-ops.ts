/**
 * multi (atomic writes and version checks) and multiRead as calls: encode through multi-wire.ts, send,
 * and turn a failed multi into one ZooKeeperError carrying every op's result.
 */

import { errorFromServer, withoutStack, ZooKeeperError } from '../errors.js';
import { guard, ok, type ClientContext } from './context.js';
import { encodeMulti, multiResults, type OpResult, type ReadOp, type WriteOp } from './multi-wire.js';
import { multiRequestSize } from './request-size.js';
import type { CallOptions } from './types.js';

export function multi(ctx: ClientContext, ops: readonly WriteOp[], options: CallOptions): Promise<OpResult[]> {
  return guard(() => {
    const body = encodeMulti('write', ops, ctx);
    const measured = multiRequestSize(body.ops);
    ctx.checkRequestSize('multi', undefined, measured.dataLength, () => measured.size);
    return ctx.send('multi', undefined, 'multi', body, options, (reply) => {
      ok(reply, 'multi', undefined);
      const results = multiResults(reply.body, ctx.chroot);
      const failed = results.findIndex((r) => r.type === 'error' && r.errno !== 0);
      if (failed >= 0) {
        const { errno } = results[failed] as { errno: number };
        const path = ops[failed]?.path;
        const base = errorFromServer(errno, 'multi', path);
        // built from the reply, like errorFromServer's: no stack (see withoutStack)
        throw withoutStack(() => new ZooKeeperError(base.code, `${base.message} (op ${failed})`, { errno, op: 'multi', path, results }));
      }
      return results;
    });
  });
}

export function multiRead(ctx: ClientContext, ops: readonly ReadOp[], options: CallOptions): Promise<OpResult[]> {
  return guard(() => {
    const body = encodeMulti('read', ops, ctx);
    return ctx.send('multiRead', undefined, 'multiRead', body, options, (reply) => {
      ok(reply, 'multiRead', undefined);
      return multiResults(reply.body, ctx.chroot);
    });
  });
}
