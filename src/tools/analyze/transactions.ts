/**
 * The server's transaction log as a second source for the analysis: each transaction names its session, and the
 * capture knows which client address each session used, so the two together answer "who created, changed or
 * deleted this node, when, and from which client". A sink over decoded transactions (src/tools/txnlog), joined to a
 * finished report's sessions by session id. Pure: the CLI reads the files.
 */

import { hexId } from '../../protocol/describe.js';
import type { TxnEntry } from '../txnlog/txn-entry.js';
import { underPath } from '../txnlog/txn-filter.js';
import { nodeEvents, type NodeEvent } from '../txnlog/txn-summary.js';
import { roundMs } from '../shared/latency.js';
import type { SessionReport, TransactionsReport, TxnChange } from './report.js';

/** The list is bounded like every list in the report; the counts stay exact. */
export const MAX_TXN_CHANGES = 5000;

/**
 * The leader stamps a transaction when it proposes it, before the reply crosses the wire; a connection that ended
 * a moment before the stamp (a close racing its own closeSession) still made it.
 */
const CONN_SLACK_MS = 50;

export interface TxnLinkOptions {
  /** Where the transactions came from, for the report. */
  source: string;
  /**
   * Only changes of this node and below it, from any session (those not in the capture have no client). Without it,
   * every change made by a session seen in the capture.
   */
  path?: string;
}

export class TxnLinker {
  readonly #opts: TxnLinkOptions;
  readonly #sessions = new Map<string, SessionReport>();
  readonly #startMs: number;
  readonly #changes: TxnChange[] = [];
  #highest: bigint | undefined;
  #scanned = 0;
  #fromCapture = 0;
  #omitted = 0;

  /** `startUs` is the report's: the absolute time its ms are counted from. */
  constructor(
    sessions: readonly SessionReport[],
    startUs: number,
    opts: TxnLinkOptions,
  ) {
    this.#opts = opts;
    for (const s of sessions) this.#sessions.set(s.id, s);
    this.#startMs = startUs / 1000;
  }

  /**
   * Feed transactions in zxid order. One already seen (a zxid at or below the highest so far) is skipped: the logs
   * of several members of one ensemble hold the same transactions, and a zxid names one ensemble-wide.
   */
  add(entry: TxnEntry): void {
    const zxid = entry.header.zxid;
    if (this.#highest !== undefined && zxid <= this.#highest) return;
    this.#highest = zxid;
    this.#scanned++;
    const session = hexId(entry.header.clientId);
    const seen = this.#sessions.get(session);
    if (seen !== undefined) this.#fromCapture++;
    const path = this.#opts.path;
    if (path === undefined && seen === undefined) return;
    for (const e of nodeEvents(entry)) {
      if (path !== undefined && !underPath(e.path, path)) continue;
      if (this.#changes.length >= MAX_TXN_CHANGES) {
        this.#omitted++;
        continue;
      }
      this.#changes.push(this.#change(e, seen));
    }
  }

  report(): TransactionsReport {
    return { source: this.#opts.source, path: this.#opts.path ?? null, scanned: this.#scanned, fromCapture: this.#fromCapture, changes: this.#changes, omitted: this.#omitted };
  }

  #change(e: NodeEvent, s: SessionReport | undefined): TxnChange {
    const atMs = roundMs(e.time - this.#startMs);
    return {
      zxid: hexId(e.zxid),
      atMs,
      time: new Date(e.time).toISOString(),
      session: hexId(e.session),
      client: s === undefined ? null : clientAt(s, atMs),
      op: e.op,
      change: e.change,
      path: e.path,
      detail: e.detail ?? null,
    };
  }
}

/**
 * The client address the session used at `atMs`: the connection open then, else the last one opened before it
 * (the transaction was logged after its connection was seen to end), else the first.
 */
export function clientAt(s: SessionReport, atMs: number): string | null {
  const conns = s.connections;
  const open = conns.find((c) => c.fromMs <= atMs + CONN_SLACK_MS && (c.toMs === null || c.toMs >= atMs - CONN_SLACK_MS));
  if (open !== undefined) return open.client;
  const before = conns.filter((c) => c.fromMs <= atMs);
  return (before[before.length - 1] ?? conns[0])?.client ?? null;
}

/** Every transaction of `entries` folded into a report against the capture's sessions. */
export function linkTransactions(entries: Iterable<TxnEntry>, sessions: readonly SessionReport[], startUs: number, opts: TxnLinkOptions): TransactionsReport {
  const l = new TxnLinker(sessions, startUs, opts);
  for (const e of entries) l.add(e);
  return l.report();
}
