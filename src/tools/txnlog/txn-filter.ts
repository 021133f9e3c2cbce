/** Which transactions a reader asked for: path prefix, session, zxid and time range, operation. Pure predicate. */

import { opName } from '../../protocol/opcodes.js';
import type { TxnEntry } from './txn-entry.js';
import { txnRecordPaths } from './txn-records.js';

export interface TxnFilter {
  /** The node and everything below it (`/a` matches `/a` and `/a/b`, not `/ab`). */
  readonly path?: string;
  readonly session?: bigint;
  readonly zxidFrom?: bigint;
  readonly zxidTo?: bigint;
  /** ms since the epoch, inclusive. */
  readonly since?: number;
  readonly until?: number;
  /** Op names (`create`, `setData`, `closeSession`, …); a multi matches by its own name or any of its sub-ops'. */
  readonly ops?: ReadonlySet<string>;
}

/** Whether `path` is `prefix` or below it. */
export function underPath(path: string, prefix: string): boolean {
  if (prefix === '/' || path === prefix) return true;
  return path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
}

export function matchesTxn(entry: TxnEntry, f: TxnFilter): boolean {
  const h = entry.header;
  if (f.session !== undefined && BigInt.asUintN(64, h.clientId) !== BigInt.asUintN(64, f.session)) return false;
  if (f.zxidFrom !== undefined && h.zxid < f.zxidFrom) return false;
  if (f.zxidTo !== undefined && h.zxid > f.zxidTo) return false;
  if (f.since !== undefined && h.time < f.since) return false;
  if (f.until !== undefined && h.time > f.until) return false;
  if (f.ops !== undefined && !f.ops.has(entry.op)) {
    const rec = entry.record;
    if (rec.kind !== 'multi' || !rec.txns.some((t) => f.ops!.has(opName(t.type)))) return false;
  }
  if (f.path !== undefined) {
    const prefix = f.path;
    if (!txnRecordPaths(entry.record).some((p) => underPath(p, prefix))) return false;
  }
  return true;
}
