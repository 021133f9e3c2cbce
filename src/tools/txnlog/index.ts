/**
 * ZooKeeper's on-disk files, decoded from bytes: transaction logs (`log.<zxid>`) and snapshots (`snapshot.<zxid>`).
 * Pure and portable (no node:* import; compiled with tsconfig.core.json): the CLI reads the files and feeds chunks.
 */

export { Adler32, adler32 } from './adler32.js';
export { DataFileError, type DamageCode, type DataFileErrorCode } from './errors.js';
export { decodeFileHeader, FILE_HEADER_SIZE, SNAP_MAGIC, TXNLOG_MAGIC, type FileHeader } from './file-header.js';
export { gunzip, snappyUnsupported, snapshotCompression, type SnapshotCompression } from './gunzip.js';
export { decodeSnapshot, SnapshotDecoder, type SnapshotEvent, type StatPersisted } from './snapshot-decoder.js';
export { decodeTxnPayload, type TxnDigest, type TxnEntry, type TxnHeader } from './txn-entry.js';
export * from './txn-records.js';
export { decodeTxnLog, MAX_ENTRY_SIZE, TxnLogDecoder, type DamageEvent, type TxnEvent, type TxnLogEndEvent, type TxnLogEvent, type TxnLogHeaderEvent } from './txnlog-decoder.js';
export { damageText, recordText, txnJson, txnText } from './txn-format.js';
export { matchesTxn, underPath, type TxnFilter } from './txn-filter.js';
export { NodeHistory, nodeEvents, nodeEventText, SessionSummaries, sessionSummaryText, type NodeChange, type NodeEvent, type SessionSummary } from './txn-summary.js';
export { NodeReplay, type NodeAtZxid } from './node-at-zxid.js';
