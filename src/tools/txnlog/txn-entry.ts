/**
 * One transaction log entry's payload (what the checksum covers): the TxnHeader, the transaction's record, and in
 * 3.6+ a TxnDigest after it. The same bytes ZooKeeper's SerializeUtils.deserializeTxn reads.
 */

import { JuteDecodeError, JuteReader } from '../../protocol/jute.js';
import { OpCode, opName } from '../../protocol/opcodes.js';
import { decodeTxnRecord, type TxnRecord } from './txn-records.js';

export interface TxnHeader {
  /** The session that made the change. */
  readonly clientId: bigint;
  /** The client's xid for the request (0 for server-made transactions such as a session expiry). */
  readonly cxid: number;
  readonly zxid: bigint;
  /** When the leader logged it, ms since the epoch. */
  readonly time: number;
  /** The opcode (OpCode): create, setData, … and createSession -10, closeSession -11, error -1. */
  readonly type: number;
}

/** The tree digest after the transaction (3.6+, zookeeper.digest.enabled). */
export interface TxnDigest {
  readonly version: number;
  readonly treeDigest: bigint;
}

export interface TxnEntry {
  readonly header: TxnHeader;
  /** The opcode's name (`create`, `closeSession`, …), or `unknown`. */
  readonly op: string;
  readonly record: TxnRecord;
  readonly digest: TxnDigest | null;
}

const TXN_HEADER_SIZE = 32;
const DIGEST_SIZE = 12;

function decodeNested(type: number, bytes: Uint8Array): TxnRecord {
  return decodeTxnRecord(type, new JuteReader(bytes), decodeNested);
}

/** Decodes the payload bytes[start, end). Throws JuteDecodeError when they are not a transaction. */
export function decodeTxnPayload(bytes: Uint8Array, start: number, end: number): TxnEntry {
  let r = new JuteReader(bytes, start, end);
  if (end - start < TXN_HEADER_SIZE) throw new JuteDecodeError('corrupt', `${end - start} byte(s) cannot hold a TxnHeader`, start);
  const header: TxnHeader = {
    clientId: r.readLong('TxnHeader.clientId'),
    cxid: r.readInt('TxnHeader.cxid'),
    zxid: r.readLong('TxnHeader.zxid'),
    time: Number(r.readLong('TxnHeader.time')),
    type: r.readInt('TxnHeader.type'),
  };
  const recordStart = r.offset;
  let record: TxnRecord;
  try {
    record = decodeTxnRecord(header.type, r, decodeNested);
    if (header.type === OpCode.closeSession && r.remaining !== 0 && r.remaining !== DIGEST_SIZE && end - recordStart === DIGEST_SIZE) {
      throw new JuteDecodeError('corrupt', 'not a path list', recordStart);
    }
  } catch (e) {
    // A closeSession without its path list (3.5, or closeSessionTxn disabled) followed by a digest: 12 bytes that
    // only look like a list. ZooKeeper's reader falls back the same way.
    if (!(e instanceof JuteDecodeError) || header.type !== OpCode.closeSession || end - recordStart !== DIGEST_SIZE) throw e;
    record = { kind: 'closeSession', paths: null };
    r = new JuteReader(bytes, recordStart, end);
  }
  let digest: TxnDigest | null = null;
  if (r.remaining === DIGEST_SIZE) digest = { version: r.readInt('TxnDigest.version'), treeDigest: r.readLong('TxnDigest.treeDigest') };
  else if (r.remaining !== 0) throw new JuteDecodeError('corrupt', `${r.remaining} byte(s) after the ${opName(header.type)} record`, r.offset);
  return { header, op: opName(header.type), record, digest };
}
