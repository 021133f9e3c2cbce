/**
 * Per-key totals of requests and replies: counts, errors by ZooKeeper's code name and request → reply latency. The
 * one aggregator behind `zkwire analyze`'s ops tables (by op, path, session, client) and the summary the tracing
 * proxy prints when it stops (by op).
 */

import type { LatencyHistogram, LatencySummary } from './histogram.js';
import { coarseBuckets, latencySummary, msHistogram, type LatencyBucket } from './latency.js';

/** One row of an ops table. */
export interface OpRow {
  /** The op name, path prefix, session id or client address. */
  key: string;
  requests: number;
  replies: number;
  /** Error replies by ZooKeeper's code name. */
  errors: Record<string, number>;
  latencyMs: LatencySummary | null;
  /** The latency distribution (when asked for). */
  histogram?: LatencyBucket[];
}

/** The running totals of one row. */
export interface Totals {
  requests: number;
  replies: number;
  errors: Map<string, number>;
  latency: LatencyHistogram;
}

/** Rows of totals by key (op name, path prefix, session, client), at most `limit` of them. */
export class OpTotalsTable {
  readonly #limit: number;
  readonly #rows = new Map<string, Totals>();

  constructor(limit: number) {
    this.#limit = limit;}

  row(key: string): Totals {
    let t = this.#rows.get(key);
    if (t === undefined) {
      // Attacker-controlled paths could make this grow without end; past the limit, fold into one row.
      if (this.#rows.size >= this.#limit) key = '(other)';
      t = this.#rows.get(key);
      if (t === undefined) {
        t = { requests: 0, replies: 0, errors: new Map(), latency: msHistogram() };
        this.#rows.set(key, t);
      }
    }
    return t;
  }

  /** The rows, by key or by request count (most first); `histograms` adds each row's latency distribution. */
  report(order: 'key' | 'requests', histograms = false): OpRow[] {
    const out = [...this.#rows].map(([key, t]) => {
      const row: OpRow = {
        key,
        requests: t.requests,
        replies: t.replies,
        errors: Object.fromEntries([...t.errors].sort(([a], [b]) => a.localeCompare(b))),
        latencyMs: latencySummary(t.latency),
      };
      if (histograms) row.histogram = coarseBuckets(t.latency, 24);
      return row;
    });
    return order === 'key' ? out.sort((a, b) => a.key.localeCompare(b.key)) : out.sort((a, b) => b.requests - a.requests || a.key.localeCompare(b.key));
  }
}

/** Counts one reply into a row: `err` is the error's name (undefined for OK), `latencyMs` when the request was seen. */
export function replied(t: Totals, err: string | undefined, latencyMs: number | undefined): void {
  t.replies++;
  if (latencyMs !== undefined) t.latency.record(latencyMs);
  if (err !== undefined) t.errors.set(err, (t.errors.get(err) ?? 0) + 1);
}
