/**
 * How a transaction reads, as one text line (ZooKeeper's TxnLogToolkit order: time, session, cxid, zxid, op, details,
 * with ids in hex as ZooKeeper's own logs print them) and as a JSON value. A sink of the TxnLogEvent stream.
 */

import { errName, hexId, permsText, shortData, toJsonValue, type JsonValue } from '../../protocol/describe.js';
import { opName } from '../../protocol/opcodes.js';
import type { ACL } from '../../protocol/records/acl.js';
import type { TxnEntry } from './txn-entry.js';
import type { TxnRecord } from './txn-records.js';
import type { DamageEvent } from './txnlog-decoder.js';

function aclText(acl: readonly ACL[] | null): string {
  if (acl === null) return 'null';
  return `[${acl.map((a) => `${a.id.scheme}:${a.id.id}:${permsText(a.perms)}`).join(', ')}]`;
}

const MAX_LISTED = 5;

/** The record's details after the op name: path first, then what changed. */
export function recordText(rec: TxnRecord): string {
  switch (rec.kind) {
    case 'create':
      return `${rec.path}${rec.ephemeral ? ' ephemeral' : ''} ${shortData(rec.data)} acl=${aclText(rec.acl)}`;
    case 'createTTL':
      return `${rec.path} ttl=${rec.ttl}ms ${shortData(rec.data)} acl=${aclText(rec.acl)}`;
    case 'createContainer':
      return `${rec.path} ${shortData(rec.data)} acl=${aclText(rec.acl)}`;
    case 'delete':
      return rec.path;
    case 'setData':
      return `${rec.path} ${shortData(rec.data)} version=${rec.version}`;
    case 'check':
      return `${rec.path} version=${rec.version}`;
    case 'setACL':
      return `${rec.path} acl=${aclText(rec.acl)} version=${rec.version}`;
    case 'createSession':
      return `timeout=${rec.timeout}ms`;
    case 'closeSession': {
      if (rec.paths === null) return '';
      const shown = rec.paths.slice(0, MAX_LISTED).join(', ');
      return `ephemerals=[${shown}${rec.paths.length > MAX_LISTED ? `, …+${rec.paths.length - MAX_LISTED}` : ''}]`;
    }
    case 'error':
      return errName(rec.err);
    case 'multi':
      return rec.txns.map((t) => `${opName(t.type)} ${recordText(t.record)}`.trimEnd()).join('; ');
    case 'unknown':
      return `${rec.bytes.length} byte(s)`;
  }
}

/** One line per transaction. */
export function txnText(entry: TxnEntry): string {
  const h = entry.header;
  const details = recordText(entry.record);
  return `${new Date(h.time).toISOString()} session ${hexId(h.clientId)} cxid ${hexId(BigInt(h.cxid >>> 0))} zxid ${hexId(h.zxid)} ${entry.op}${details === '' ? '' : ` ${details}`}`;
}

function recordJson(rec: TxnRecord): JsonValue {
  if (rec.kind === 'multi') {
    return { txns: rec.txns.map((t) => ({ op: opName(t.type), ...(recordJson(t.record) as Record<string, JsonValue>) })) };
  }
  if (rec.kind === 'error') return { err: errName(rec.err), errCode: rec.err };
  const { kind: _kind, ...fields } = rec;
  return toJsonValue(fields);
}

/**
 * A transaction as JSON: session and zxid as "0x…" (what operators grep ZooKeeper's logs for), time as ISO-8601 and
 * ms, the record's fields beside them (data as {len, hex, text?}, other longs as decimal strings).
 */
export function txnJson(entry: TxnEntry): Record<string, JsonValue> {
  const h = entry.header;
  return {
    zxid: hexId(h.zxid),
    session: hexId(h.clientId),
    cxid: h.cxid,
    time: new Date(h.time).toISOString(),
    timeMs: h.time,
    op: entry.op,
    ...(recordJson(entry.record) as Record<string, JsonValue>),
    ...(entry.digest === null ? {} : { digest: { version: entry.digest.version, treeDigest: entry.digest.treeDigest.toString() } }),
  };
}

export function damageText(d: DamageEvent): string {
  const resumed = d.resumedAt === undefined ? 'nothing decodable after it' : `resumed at byte ${d.resumedAt}`;
  return `${d.code} at byte ${d.offset}: ${d.message}; ${resumed}`;
}
