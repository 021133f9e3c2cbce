/**
 * multi/multiRead between the client's op descriptions and the wire records: validation, chroot, the
 * opcode per create mode on the way out; typed per-op results with chroot stripped on the way back.
 */

import { clientError, errorFromServer } from '../errors.js';
import { errorName, MULTI_END, multiOp, OpCode, type MultiOp, type MultiRequest, type MultiResponse, type MultiResultBody, type Stat } from '../protocol/index.js';
import type { ACL } from './acl.js';
import type { Chroot } from './chroot.js';
import { checkTtl, createModeInfo, createOp } from './create-mode.js';
import type { OpResult, ReadOp, WriteOp } from './multi.js';
import { checkAcl, checkVersion } from './checks.js';
import { validatePath } from './paths.js';
import type { Data } from './types.js';

export type { OpResult, ReadOp, WriteOp } from './multi.js';

type DataCheck = (data: Data, op: string, path: string) => Uint8Array;

function encodeOp(o: WriteOp | ReadOp, i: number, chroot: Chroot, data: DataCheck, defaultAcl: readonly ACL[]): MultiOp {
  const op = `multi[${i}].${o.kind}`;
  switch (o.kind) {
    case 'create': {
      const mode = createModeInfo(o.mode ?? 'persistent', op, o.path);
      validatePath(o.path, op, mode.sequential);
      const ttl = checkTtl(mode, o.ttl, op, o.path);
      const body = {
        path: chroot.toServer(o.path),
        data: o.data === undefined || o.data === null ? null : data(o.data, op, o.path),
        acl: checkAcl(o.acl ?? defaultAcl, op, o.path),
        flags: mode.flags,
        ...(ttl === undefined ? {} : { ttl }),
      };
      return multiOp(OpCode[createOp(mode, false)], body);
    }
    case 'delete':
      validatePath(o.path, op);
      return multiOp(OpCode.delete, { path: chroot.toServer(o.path), version: checkVersion(o.version, op, o.path) });
    case 'setData':
      validatePath(o.path, op);
      return multiOp(OpCode.setData, { path: chroot.toServer(o.path), data: data(o.data, op, o.path), version: checkVersion(o.version, op, o.path) });
    case 'check':
      validatePath(o.path, op);
      return multiOp(OpCode.check, { path: chroot.toServer(o.path), version: checkVersion(o.version, op, o.path) });
    case 'getData':
      validatePath(o.path, op);
      return multiOp(OpCode.getData, { path: chroot.toServer(o.path), watch: false });
    case 'getChildren':
      validatePath(o.path, op);
      return multiOp(OpCode.getChildren, { path: chroot.toServer(o.path), watch: false });
    default:
      throw clientError('BAD_ARGUMENT', `unknown multi op ${JSON.stringify((o as { kind?: unknown }).kind)}`, { op: 'multi' });
  }
}

const READ_KINDS = new Set(['getData', 'getChildren']);

export function encodeMulti(
  kind: 'write' | 'read',
  ops: readonly (WriteOp | ReadOp)[],
  chroot: Chroot,
  data: DataCheck,
  defaultAcl: readonly ACL[],
): MultiRequest {
  const name = kind === 'write' ? 'multi' : 'multiRead';
  if (!Array.isArray(ops)) throw clientError('BAD_ARGUMENT', 'ops must be an array', { op: name });
  // The server refuses a mix with MARSHALLINGERROR after a round trip; say so before sending.
  ops.forEach((o, i) => {
    if (READ_KINDS.has(o.kind) !== (kind === 'read')) {
      const want = kind === 'write' ? 'create, delete, setData and check' : 'getData and getChildren';
      throw clientError('BAD_ARGUMENT', `op ${i} (${String(o.kind)}): ${name} takes only ${want}`, { op: name, path: o.path });
    }
  });
  return { ops: ops.map((o, i) => encodeOp(o, i, chroot, data, defaultAcl)), end: { ...MULTI_END } };
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
