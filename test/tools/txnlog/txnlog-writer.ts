/**
 * Writes transaction log bytes in ZooKeeper's layout, for tests and the benchmark (a log of any size without a
 * server) — never for a real server's data directory. Records are written with src/protocol's JuteWriter. Test
 * machinery, so it lives under test/ and is not shipped; bench/txnlog.ts imports it from here.
 */

import { JuteWriter } from '../../../src/protocol/jute.js';
import { OpCode } from '../../../src/protocol/opcodes.js';
import { adler32 } from '../../../src/tools/txnlog/adler32.js';
import { TXNLOG_MAGIC } from '../../../src/tools/txnlog/file-header.js';

export interface WrittenTxn {
  readonly session: bigint;
  readonly zxid: bigint;
  readonly time: number;
  readonly type: number;
  /** Writes the record after the header. */
  readonly body: (w: JuteWriter) => void;
}

export function txnLogHeader(): Uint8Array {
  return new JuteWriter(16).writeInt(TXNLOG_MAGIC).writeInt(2).writeLong(0n).toBytes();
}

/** One entry: checksum, length, payload (header, record, a TxnDigest), 'B'. */
export function txnLogEntry(t: WrittenTxn): Uint8Array {
  const p = new JuteWriter(128);
  p.writeLong(t.session).writeInt(1).writeLong(t.zxid).writeLong(BigInt(t.time)).writeInt(t.type);
  t.body(p);
  p.writeInt(2).writeLong(0x1234n); // TxnDigest, as 3.6+ writes it
  const payload = p.written();
  return new JuteWriter(payload.length + 13).writeLong(BigInt(adler32(payload))).writeBuffer(payload).writeBytes(new Uint8Array([0x42])).toBytes();
}

/** A create of `path` with `data`, world:anyone. */
export function createTxn(session: bigint, zxid: bigint, path: string, data: Uint8Array): WrittenTxn {
  return {
    session,
    zxid,
    time: 1_700_000_000_000 + Number(zxid),
    type: OpCode.create,
    body: (w) => {
      w.writeString(path).writeBuffer(data);
      w.writeInt(1).writeInt(31).writeString('world').writeString('anyone');
      w.writeBool(false).writeInt(1);
    },
  };
}

export function setDataTxn(session: bigint, zxid: bigint, path: string, data: Uint8Array): WrittenTxn {
  return { session, zxid, time: 1_700_000_000_000 + Number(zxid), type: OpCode.setData, body: (w) => void w.writeString(path).writeBuffer(data).writeInt(1) };
}
