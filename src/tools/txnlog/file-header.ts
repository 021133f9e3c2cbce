/**
 * The FileHeader that starts every transaction log and snapshot (zookeeper.jute, `org.apache.zookeeper.server.persistence`):
 * `int magic; int version; long dbid` — 16 bytes. The magic is the ASCII of "ZKLG" (logs) or "ZKSN" (snapshots).
 */

import { JuteReader } from '../../protocol/jute.js';
import { hexEncode } from '../../protocol/hex.js';

export interface FileHeader {
  /** The magic as its four ASCII letters ("ZKLG", "ZKSN"). */
  readonly magic: string;
  /** 2 for every ZooKeeper since 3.0. */
  readonly version: number;
  /** Always 0 in practice (kept for the format's sake). */
  readonly dbid: bigint;
}

export const FILE_HEADER_SIZE = 16;
/** "ZKLG" as a big-endian int (FileTxnLog.TXNLOG_MAGIC). */
export const TXNLOG_MAGIC = 0x5a4b4c47;
/** "ZKSN" as a big-endian int (FileSnap.SNAP_MAGIC). */
export const SNAP_MAGIC = 0x5a4b534e;

/** Decodes the 16-byte header at `start` (the caller has checked there are 16 bytes). */
export function decodeFileHeader(bytes: Uint8Array, start = 0): FileHeader {
  const r = new JuteReader(bytes, start, start + FILE_HEADER_SIZE);
  const magic = r.readInt('FileHeader.magic');
  return { magic: magicText(magic), version: r.readInt('FileHeader.version'), dbid: r.readLong('FileHeader.dbid') };
}

/** The four bytes of a magic as text, non-printable bytes as \xNN, for messages. */
export function magicText(magic: number): string {
  let s = '';
  for (const shift of [24, 16, 8, 0]) {
    const b = (magic >>> shift) & 0xff;
    s += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return s;
}

/** What a file's first bytes say it is, for "this is a snapshot, not a log" messages. */
export function describeMagic(bytes: Uint8Array): string {
  if (bytes.length >= 4) {
    const magic = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
    if (magic === TXNLOG_MAGIC) return 'a ZooKeeper transaction log';
    if (magic === SNAP_MAGIC) return 'a ZooKeeper snapshot';
  }
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return 'gzip-compressed data';
  if (isSnappyStream(bytes)) return 'snappy-compressed data';
  if (bytes.length >= 4 && bytes.subarray(0, 4).every((b) => b === 0)) return 'zeros';
  return `bytes starting ${hexEncode(bytes, 0, Math.min(4, bytes.length)).replace(/(..)(?=.)/g, '$1 ')}`;
}

/** snappy-java's SnappyOutputStream header (what ZooKeeper's `.snappy` snapshots start with): 0x82 "SNAPPY" 0x00. */
export function isSnappyStream(bytes: Uint8Array): boolean {
  const magic = [0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00];
  return bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);
}
