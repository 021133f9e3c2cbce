/**
 * multi (14) and multiRead (22) on the in-memory server, with ZooKeeper's result rules (DataTree.processTxn):
 * a multi is one transaction with one zxid; if an op fails, every change is rolled back, the ops before it report
 * OK, the failed one its error, the ones after it RUNTIMEINCONSISTENCY, all as error results, and the reply header
 * still says OK. A multiRead answers each read on its own.
 */

import { ErrorCode } from '../../protocol/error-codes.js';
import { OpCode } from '../../protocol/opcodes.js';
import type { CreateTTLRequest } from '../../protocol/records/create.js';
import type { MultiRequest, MultiResponse, MultiResult } from '../../protocol/records/multi.js';
import type { CheckVersionRequest, DeleteRequest, GetDataRequest, SetDataRequest } from '../../protocol/records/node-data.js';
import type { GetChildrenRequest } from '../../protocol/records/children.js';
import { MULTI_END } from '../../protocol/records/multi.js';
import type { TreeEvent } from './data-tree.js';
import { KeeperError } from './keeper-error.js';
import { getChildren, getData } from './read-ops.js';
import type { RequestContext, WriteContext } from './request-context.js';
import { check, create, remove, setData, type WriteResult } from './write-ops.js';

function result(type: number, body: MultiResult['body'], err = 0): MultiResult {
  return { header: { type, done: false, err }, body };
}

function errorResult(err: number): MultiResult {
  return result(OpCode.error, { err }, err);
}

function applyOp(ctx: WriteContext, type: number, body: unknown): { result: MultiResult; change: WriteResult<unknown>['change'] } {
  switch (type) {
    case OpCode.create: {
      const r = create(ctx, type, body as CreateTTLRequest);
      return { result: result(OpCode.create, { path: r.body.path }), change: r.change };
    }
    case OpCode.create2:
    case OpCode.createContainer:
    case OpCode.createTTL: {
      const req = body as CreateTTLRequest;
      const r = create(ctx, type, req, type === OpCode.createTTL ? req.ttl : -1n);
      // The server reports every create-with-stat result as create2 (multi.ts in the codec says so too).
      return { result: result(OpCode.create2, r.body), change: r.change };
    }
    case OpCode.delete: {
      const r = remove(ctx, body as DeleteRequest);
      return { result: result(OpCode.delete, null), change: r.change };
    }
    case OpCode.setData: {
      const r = setData(ctx, body as SetDataRequest);
      return { result: result(OpCode.setData, r.body), change: r.change };
    }
    case OpCode.check: {
      const r = check(ctx, body as CheckVersionRequest);
      return { result: result(OpCode.check, null), change: r.change };
    }
    default:
      throw new KeeperError('BADARGUMENTS');
  }
}

/** Runs a multi as one transaction; returns the reply body and the events to fire (none when it failed). */
export function multi(ctx: WriteContext, req: MultiRequest): { body: MultiResponse; events: TreeEvent[] } {
  const undos: (() => void)[] = [];
  const events: TreeEvent[] = [];
  const results: MultiResult[] = [];
  let failedAt = -1;
  let failure = 0;
  for (const [i, op] of req.ops.entries()) {
    try {
      const { result: r, change } = applyOp(ctx, op.header.type, op.body);
      results.push(r);
      undos.push(change.undo);
      events.push(...change.events);
    } catch (error) {
      if (!(error instanceof KeeperError)) throw error;
      failedAt = i;
      failure = error.errno;
      break;
    }
  }
  if (failedAt < 0) return { body: { results, end: { ...MULTI_END } }, events };
  for (const undo of undos.reverse()) undo();
  const failed = req.ops.map((_, i) =>
    errorResult(i < failedAt ? ErrorCode.OK : i === failedAt ? failure : ErrorCode.RUNTIMEINCONSISTENCY),
  );
  return { body: { results: failed, end: { ...MULTI_END } }, events: [] };
}

/** multiRead: getData and getChildren, each answered or failed on its own. */
export function multiRead(ctx: RequestContext, req: MultiRequest): MultiResponse {
  const results = req.ops.map((op): MultiResult => {
    try {
      if (op.header.type === OpCode.getData) {
        const r = op.body as GetDataRequest;
        return result(OpCode.getData, getData(ctx, r.path, r.watch));
      }
      if (op.header.type === OpCode.getChildren) {
        const r = op.body as GetChildrenRequest;
        return result(OpCode.getChildren, { children: getChildren(ctx, r.path, r.watch).children });
      }
      return errorResult(ErrorCode.BADARGUMENTS);
    } catch (error) {
      if (!(error instanceof KeeperError)) throw error;
      return errorResult(error.errno);
    }
  });
  return { results, end: { ...MULTI_END } };
}
