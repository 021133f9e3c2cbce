/**
 * The transaction records of ZooKeeper 3.5–3.9 (`module org.apache.zookeeper.txn` in zookeeper.jute), decoded by the
 * transaction type that precedes them, as SerializeUtils.deserializeTxn and DataTree.processTxn pick them:
 * create/create2 → CreateTxn, reconfig/setData → SetDataTxn, delete/deleteContainer → DeleteTxn, and so on.
 * One decoder per record, fields in jute order; the Jute primitives and ACL come from src/protocol.
 */

import type { JuteReader } from '../../protocol/jute.js';
import { OpCode } from '../../protocol/opcodes.js';
import { decodeACLVector, type ACL } from '../../protocol/records/acl.js';

export interface CreateTxn {
  readonly kind: 'create';
  readonly path: string;
  readonly data: Uint8Array | null;
  readonly acl: readonly ACL[] | null;
  readonly ephemeral: boolean;
  /** -1 for a CreateTxnV0 of a pre-3.3 log (ZooKeeper fixes it up on replay). */
  readonly parentCVersion: number;
}

export interface CreateTTLTxn {
  readonly kind: 'createTTL';
  readonly path: string;
  readonly data: Uint8Array | null;
  readonly acl: readonly ACL[] | null;
  readonly parentCVersion: number;
  readonly ttl: bigint;
}

export interface CreateContainerTxn {
  readonly kind: 'createContainer';
  readonly path: string;
  readonly data: Uint8Array | null;
  readonly acl: readonly ACL[] | null;
  readonly parentCVersion: number;
}

export interface DeleteTxn {
  readonly kind: 'delete';
  readonly path: string;
}

/** setData; also the body of a reconfig, which writes the new configuration to /zookeeper/config. */
export interface SetDataTxn {
  readonly kind: 'setData';
  readonly path: string;
  readonly data: Uint8Array | null;
  readonly version: number;
}

export interface CheckVersionTxn {
  readonly kind: 'check';
  readonly path: string;
  readonly version: number;
}

export interface SetACLTxn {
  readonly kind: 'setACL';
  readonly path: string;
  readonly acl: readonly ACL[] | null;
  readonly version: number;
}

export interface CreateSessionTxn {
  readonly kind: 'createSession';
  /** The negotiated session timeout, ms. */
  readonly timeout: number;
}

export interface CloseSessionTxn {
  readonly kind: 'closeSession';
  /** The session's ephemeral nodes, deleted with it (3.6+); null when the log predates the list (3.5). */
  readonly paths: readonly string[] | null;
}

/** A failed write (NODEEXISTS, BADVERSION, …): it still takes a zxid. */
export interface ErrorTxn {
  readonly kind: 'error';
  readonly err: number;
}

/** One operation inside a multi: its type and its own record. */
export interface SubTxn {
  readonly type: number;
  readonly record: TxnRecord;
}

export interface MultiTxn {
  readonly kind: 'multi';
  readonly txns: readonly SubTxn[];
}

/** A record whose type no 3.5–3.9 server writes: kept as bytes so nothing is lost. */
export interface UnknownTxn {
  readonly kind: 'unknown';
  readonly bytes: Uint8Array;
}

export type TxnRecord =
  | CreateTxn
  | CreateTTLTxn
  | CreateContainerTxn
  | DeleteTxn
  | SetDataTxn
  | CheckVersionTxn
  | SetACLTxn
  | CreateSessionTxn
  | CloseSessionTxn
  | ErrorTxn
  | MultiTxn
  | UnknownTxn;

function decodeCreateTxn(r: JuteReader): CreateTxn {
  const path = r.readString('CreateTxn.path') ?? '';
  const data = r.readBuffer('CreateTxn.data');
  const acl = decodeACLVector(r);
  const ephemeral = r.readBool('CreateTxn.ephemeral');
  // CreateTxnV0 (before 3.3) ends here; ZooKeeper reads it after an EOF and marks it with -1, so do we. A TxnDigest
  // (12 bytes) cannot follow a V0 record: digests are 3.6+.
  const parentCVersion = r.remaining >= 4 ? r.readInt('CreateTxn.parentCVersion') : -1;
  return { kind: 'create', path, data, acl, ephemeral, parentCVersion };
}

function decodeCreateTTLTxn(r: JuteReader): CreateTTLTxn {
  return {
    kind: 'createTTL',
    path: r.readString('CreateTTLTxn.path') ?? '',
    data: r.readBuffer('CreateTTLTxn.data'),
    acl: decodeACLVector(r),
    parentCVersion: r.readInt('CreateTTLTxn.parentCVersion'),
    ttl: r.readLong('CreateTTLTxn.ttl'),
  };
}

function decodeCreateContainerTxn(r: JuteReader): CreateContainerTxn {
  return {
    kind: 'createContainer',
    path: r.readString('CreateContainerTxn.path') ?? '',
    data: r.readBuffer('CreateContainerTxn.data'),
    acl: decodeACLVector(r),
    parentCVersion: r.readInt('CreateContainerTxn.parentCVersion'),
  };
}

function decodeDeleteTxn(r: JuteReader): DeleteTxn {
  return { kind: 'delete', path: r.readString('DeleteTxn.path') ?? '' };
}

function decodeSetDataTxn(r: JuteReader): SetDataTxn {
  return { kind: 'setData', path: r.readString('SetDataTxn.path') ?? '', data: r.readBuffer('SetDataTxn.data'), version: r.readInt('SetDataTxn.version') };
}

function decodeCheckVersionTxn(r: JuteReader): CheckVersionTxn {
  return { kind: 'check', path: r.readString('CheckVersionTxn.path') ?? '', version: r.readInt('CheckVersionTxn.version') };
}

function decodeSetACLTxn(r: JuteReader): SetACLTxn {
  return { kind: 'setACL', path: r.readString('SetACLTxn.path') ?? '', acl: decodeACLVector(r), version: r.readInt('SetACLTxn.version') };
}

function decodeCloseSessionTxn(r: JuteReader): CloseSessionTxn {
  // 3.5 logs (and 3.6+ servers with zookeeper.closeSessionTxn.enabled=false) write no body at all. A body that is
  // really a TxnDigest is told apart by the entry decoder (txn-entry.ts), which knows where the digest may start.
  if (r.remaining === 0) return { kind: 'closeSession', paths: null };
  return { kind: 'closeSession', paths: r.readStringVector('CloseSessionTxn.paths2Delete') };
}

/** A multi's sub-transaction: `int type; buffer data`, the data being the sub-op's own record. */
function decodeMultiTxn(r: JuteReader, decodeNested: (type: number, bytes: Uint8Array) => TxnRecord): MultiTxn {
  const txns =
    r.readVector((v) => {
      const type = v.readInt('Txn.type');
      const data = v.readBuffer('Txn.data') ?? new Uint8Array(0);
      return { type, record: decodeNested(type, data) };
    }, 'MultiTxn.txns') ?? [];
  return { kind: 'multi', txns };
}

/**
 * Decodes the record of a transaction of `type` (the TxnHeader's type, or a multi sub-txn's). `decodeNested`
 * decodes a sub-transaction's bytes completely (see txn-entry.ts).
 */
export function decodeTxnRecord(type: number, r: JuteReader, decodeNested: (type: number, bytes: Uint8Array) => TxnRecord): TxnRecord {
  switch (type) {
    case OpCode.create:
    case OpCode.create2:
      return decodeCreateTxn(r);
    case OpCode.createTTL:
      return decodeCreateTTLTxn(r);
    case OpCode.createContainer:
      return decodeCreateContainerTxn(r);
    case OpCode.delete:
    case OpCode.deleteContainer:
      return decodeDeleteTxn(r);
    case OpCode.setData:
    case OpCode.reconfig:
      return decodeSetDataTxn(r);
    case OpCode.check:
      return decodeCheckVersionTxn(r);
    case OpCode.setACL:
      return decodeSetACLTxn(r);
    case OpCode.createSession:
      return { kind: 'createSession', timeout: r.readInt('CreateSessionTxn.timeOut') };
    case OpCode.closeSession:
      return decodeCloseSessionTxn(r);
    case OpCode.error:
      return { kind: 'error', err: r.readInt('ErrorTxn.err') };
    case OpCode.multi:
      return decodeMultiTxn(r, decodeNested);
    default:
      return { kind: 'unknown', bytes: r.readRest() };
  }
}

/** The paths a record touches, in order (a multi's sub-ops, a closed session's ephemerals). */
export function txnRecordPaths(rec: TxnRecord): string[] {
  switch (rec.kind) {
    case 'multi':
      return rec.txns.flatMap((t) => txnRecordPaths(t.record));
    case 'closeSession':
      return rec.paths === null ? [] : [...rec.paths];
    case 'createSession':
    case 'error':
    case 'unknown':
      return [];
    default:
      return [rec.path];
  }
}
