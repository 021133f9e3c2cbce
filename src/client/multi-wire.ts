/**
 * multi/multiRead between the client's op descriptions and the wire records: validation, chroot, the
 * opcode per create mode on the way out; typed per-op results with chroot stripped on the way back.
 */

import { clientError, errorFromServer } from '../errors.js';
import { errorName, MULTI_END, multiOp, OpCode, type MultiOp, type MultiRequest, type MultiResponse, type MultiResultBody, type Stat } from '../protocol/index.js';
import type { Chroot } from './chroot.js';
import { checkVersion } from './checks.js';
import type { ClientContext } from './context.js';
import { createOp } from './create-mode.js';
import { createRequest } from './create-request.js';
import type { OpResult, ReadOp, WriteOp } from './multi.js';

export type { OpResult, ReadOp, WriteOp } from './multi.js';

function encodeOp(o: WriteOp | ReadOp, i: number, ctx: ClientContext): MultiOp {
  const op = `multi[${i}].${o.kind}`;
  switch (o.kind) {
    case 'create': {
      const { mode, body } = createRequest(ctx, op, o.path, o.data, o);
      return multiOp(OpCode[createOp(mode, false)], body);
    }
    case 'delete':
      return multiOp(OpCode.delete, { path: ctx.serverPath(o.path, op), version: checkVersion(o.version, op, o.path) });
    case 'setData':
      return multiOp(OpCode.setData, { path: ctx.serverPath(o.path, op), data: ctx.data(o.data, op, o.path), version: checkVersion(o.version, op, o.path) });
    case 'check':
      return multiOp(OpCode.check, { path: ctx.serverPath(o.path, op), version: checkVersion(o.version, op, o.path) });
    case 'getData':
      return multiOp(OpCode.getData, { path: ctx.serverPath(o.path, op), watch: false });
    case 'getChildren':
      return multiOp(OpCode.getChildren, { path: ctx.serverPath(o.path, op), watch: false });
    default:
      throw clientError('BAD_ARGUMENT', `unknown multi op ${JSON.stringify((o as { kind?: unknown }).kind)}`, { op: 'multi' });
  }
}

const READ_KINDS = new Set(['getData', 'getChildren']);

export function encodeMulti(kind: 'write' | 'read', ops: readonly (WriteOp | ReadOp)[], ctx: ClientContext): MultiRequest {
  const name = kind === 'write' ? 'multi' : 'multiRead';
  if (!Array.isArray(ops)) throw clientError('BAD_ARGUMENT', 'ops must be an array', { op: name });
  // The server refuses a mix with MARSHALLINGERROR after a round trip; say so before sending.
  ops.forEach((o, i) => {
    if (READ_KINDS.has(o.kind) !== (kind === 'read')) {
      const want = kind === 'write' ? 'create, delete, setData and check' : 'getData and getChildren';
      throw clientError('BAD_ARGUMENT', `op ${i} (${String(o.kind)}): ${name} takes only ${want}`, { op: name, path: o.path });
    }
  });
  return { ops: ops.map((o, i) => encodeOp(o, i, ctx)), end: { ...MULTI_END } };
}

/** The Stat of a result body that carries one (the decoder picked the record by the result's type). */
function statOf(b: MultiResultBody | null): Stat | undefined {
  return b !== null && 'stat' in b ? b.stat : undefined;
}

function needStat(b: MultiResultBody | null, type: string): Stat {
  const stat = statOf(b);
  if (stat === undefined) throw clientError('PROTOCOL_ERROR', `multi ${type} result without a Stat`, { op: 'multi' });
  return stat;
}

export function multiResults(response: MultiResponse, chroot: Chroot): OpResult[] {
  return response.results.map((r): OpResult => {
    const b = r.body;
    switch (r.header.type) {
      case OpCode.create:
      case OpCode.create2:
      case OpCode.createContainer:
      case OpCode.createTTL:
        return { type: 'create', path: chroot.toClient((b !== null && 'path' in b ? b.path : null) ?? ''), stat: statOf(b) };
      case OpCode.delete:
        return { type: 'delete' };
      case OpCode.check:
        return { type: 'check' };
      case OpCode.setData:
        return { type: 'setData', stat: needStat(b, 'setData') };
      case OpCode.getData:
        return { type: 'getData', data: (b !== null && 'data' in b ? b.data : null) ?? new Uint8Array(0), stat: needStat(b, 'getData') };
      case OpCode.getChildren:
        return { type: 'getChildren', children: (b !== null && 'children' in b ? b.children : null) ?? [] };
      default: {
        const errno = (b !== null && 'err' in b ? b.err : undefined) ?? r.header.err;
        const code = errno === 0 ? 'OK' : (errorName(errno) ?? errorFromServer(errno).code);
        return { type: 'error', code, errno };
      }
    }
  });
}
