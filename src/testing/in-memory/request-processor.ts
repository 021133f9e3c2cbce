/**
 * One request of an established connection, answered as the real server answers it: decode the body (a record
 * that does not decode is MARSHALLINGERROR), run the op, fire the watches it set off, and build the reply header
 * (a write's zxid is its transaction's, a read's the last one's). Connection-level requests (ping, auth,
 * closeSession, unknown opcodes) are the connection's business, not this file's.
 */

import { ErrorCode } from '../../protocol/error-codes.js';
import { JuteDecodeError, type JuteReader } from '../../protocol/jute.js';
import { OpCode } from '../../protocol/opcodes.js';
import { decodeRequestBody } from '../../protocol/ops.js';
import type { SetACLRequest } from '../../protocol/records/acl-ops.js';
import type { AddWatchRequest, CheckWatchesRequest, SetWatches, SetWatches2 } from '../../protocol/records/watches.js';
import type { CreateTTLRequest } from '../../protocol/records/create.js';
import type { CheckVersionRequest, DeleteRequest, ExistsRequest, GetDataRequest, SetDataRequest, SyncRequest } from '../../protocol/records/node-data.js';
import type { GetAllChildrenNumberRequest, GetChildrenRequest, GetEphemeralsRequest } from '../../protocol/records/children.js';
import type { MultiRequest } from '../../protocol/records/multi.js';
import { userOf } from './acl.js';
import type { ServerCore } from './core.js';
import type { TreeEvent } from './data-tree.js';
import { fail, KeeperError } from './keeper-error.js';
import { multi, multiRead } from './multi.js';
import * as read from './read-ops.js';
import type { RequestContext, WriteContext } from './request-context.js';
import { setWatches } from './set-watches.js';
import * as write from './write-ops.js';

/** The answer to one request: header fields and the body (none on error). */
export interface Reply {
  readonly zxid: bigint;
  readonly err: number;
  readonly body?: unknown;
}

/** Ops that are transactions: each takes a zxid, success or not. */
const WRITES: ReadonlySet<number> = new Set([
  OpCode.create,
  OpCode.create2,
  OpCode.createContainer,
  OpCode.createTTL,
  OpCode.delete,
  OpCode.setData,
  OpCode.setACL,
  OpCode.check,
  OpCode.multi,
  OpCode.reconfig,
]);

/** Whether the server handles this opcode as a request (others are the connection's, or unknown). */
export function isRequestOp(opcode: number): boolean {
  return WRITES.has(opcode) || READS.has(opcode);
}

const READS: ReadonlySet<number> = new Set([
  OpCode.exists,
  OpCode.getData,
  OpCode.getChildren,
  OpCode.getChildren2,
  OpCode.getACL,
  OpCode.getAllChildrenNumber,
  OpCode.getEphemerals,
  OpCode.sync,
  OpCode.multiRead,
  OpCode.setWatches,
  OpCode.setWatches2,
  OpCode.addWatch,
  OpCode.removeWatches,
  OpCode.checkWatches,
  OpCode.whoAmI,
]);

export function processRequest(core: ServerCore, ctx: RequestContext, opcode: number, r: JuteReader): Reply {
  const isWrite = WRITES.has(opcode);
  const zxid = isWrite ? core.nextZxid() : undefined;
  let body: unknown;
  try {
    body = decodeRequestBody(opcode, r);
  } catch (error) {
    if (!(error instanceof JuteDecodeError)) throw error;
    return { zxid: zxid ?? core.lastZxid, err: ErrorCode.MARSHALLINGERROR };
  }
  try {
    if (zxid !== undefined) {
      const { body: out, events } = runWrite({ ...ctx, zxid, time: BigInt(Math.floor(core.now())) }, opcode, body);
      core.commit(events);
      return { zxid, err: 0, body: out };
    }
    const out = runRead(ctx, opcode, body);
    return { zxid: core.lastZxid, err: 0, body: out };
  } catch (error) {
    if (!(error instanceof KeeperError)) throw error;
    return { zxid: zxid ?? core.lastZxid, err: error.errno };
  }
}

function runWrite(ctx: WriteContext, opcode: number, body: unknown): { body: unknown; events: readonly TreeEvent[] } {
  switch (opcode) {
    case OpCode.create:
    case OpCode.create2:
    case OpCode.createContainer:
    case OpCode.createTTL: {
      const req = body as CreateTTLRequest;
      const r = write.create(ctx, opcode, req, opcode === OpCode.createTTL ? req.ttl : -1n);
      return { body: opcode === OpCode.create ? { path: r.body.path } : r.body, events: r.change.events };
    }
    case OpCode.delete:
      return { body: undefined, events: write.remove(ctx, body as DeleteRequest).change.events };
    case OpCode.setData: {
      const r = write.setData(ctx, body as SetDataRequest);
      return { body: r.body, events: r.change.events };
    }
    case OpCode.setACL: {
      const r = write.setAcl(ctx, body as SetACLRequest);
      return { body: r.body, events: r.change.events };
    }
    case OpCode.check:
      return { body: undefined, events: write.check(ctx, body as CheckVersionRequest).change.events };
    case OpCode.multi:
      return multi(ctx, body as MultiRequest);
    default:
      // reconfig: a standalone server without reconfigEnabled refuses it (measured on 3.8).
      return fail('RECONFIGDISABLED');
  }
}

function runRead(ctx: RequestContext, opcode: number, body: unknown): unknown {
  switch (opcode) {
    case OpCode.exists: {
      const req = body as ExistsRequest;
      return read.exists(ctx, req.path, req.watch);
    }
    case OpCode.getData: {
      const req = body as GetDataRequest;
      return read.getData(ctx, req.path, req.watch);
    }
    case OpCode.getChildren: {
      const req = body as GetChildrenRequest;
      return { children: read.getChildren(ctx, req.path, req.watch).children };
    }
    case OpCode.getChildren2: {
      const req = body as GetChildrenRequest;
      return read.getChildren(ctx, req.path, req.watch);
    }
    case OpCode.getACL:
      return read.getAcl(ctx, (body as { path: string | null }).path);
    case OpCode.getAllChildrenNumber:
      return read.getAllChildrenNumber(ctx, (body as GetAllChildrenNumberRequest).path);
    case OpCode.getEphemerals:
      return read.getEphemerals(ctx, (body as GetEphemeralsRequest).prefixPath);
    case OpCode.sync:
      return { path: (body as SyncRequest).path };
    case OpCode.multiRead:
      return multiRead(ctx, body as MultiRequest);
    case OpCode.setWatches:
    case OpCode.setWatches2:
      setWatches(ctx, body as SetWatches & Partial<SetWatches2>);
      return undefined;
    case OpCode.addWatch: {
      const req = body as AddWatchRequest;
      if (req.path === null || (req.mode !== 0 && req.mode !== 1)) fail('BADARGUMENTS');
      ctx.watches.addPersistent(req.path, ctx.watcher, req.mode === 1);
      return { err: 0 };
    }
    case OpCode.removeWatches:
    case OpCode.checkWatches: {
      const req = body as CheckWatchesRequest;
      const found = ctx.watches.removeWatch(req.path ?? '', req.type, ctx.watcher, opcode === OpCode.checkWatches, ctx.behaviour);
      if (!found) fail('NOWATCHER');
      return undefined;
    }
    default: // whoAmI
      return { clientInfo: ctx.identities.map((id) => ({ authScheme: id.scheme, user: userOf(id) })) };
  }
}
