/**
 * The counters behind `collectStats(client)` (collect-stats.ts): every call the client's sessions answered or
 * failed, per operation, with latency percentiles. On every call while a collector counts, so it must stay cheap per
 * call (a map lookup, a logarithm, a few increments) and small. The tools' histogram (tools/shared/histogram.ts) is finer and merges across
 * processes, but it sits on the tools floor, above the client; this is its smallest cousin: buckets an eighth of a
 * doubling wide, so a percentile (the bucket's upper edge, never above the max) is at most 9 % above the exact
 * sample; only the buckets filled are stored.
 */

/** One operation's figures in `ClientStats.ops` (latencies in ms, µs resolution). */
export interface OperationStats {
  /** Calls settled (answered or failed). */
  readonly count: number;
  /** Calls that failed (their codes are counted in `ClientStats.errors`). */
  readonly errors: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
}

/** What a StatsCollector's `snapshot()` returns: the figures counted since the collector was made (over every session since). */
export interface ClientStats {
  /** Per operation name (`getData`, `create`, `multi`...): calls, failures and latency. */
  readonly ops: Readonly<Record<string, OperationStats>>;
  /** Failed calls by error code (`NONODE`, `CONNECTIONLOSS`, `ABORTED`...), every operation together. */
  readonly errors: Readonly<Record<string, number>>;
  /** Bytes of the request frames written for calls (length prefixes included). */
  readonly bytesOut: number;
  /** Bytes of the reply frames read for calls (length prefixes included). */
  readonly bytesIn: number;
  /** Connections re-established within a session after a loss (a new session after an expiry is a renewal). */
  readonly reconnects: number;
  /** New sessions opened after an expiry. */
  readonly renewals: number;
  /** Watches the current session holds now (one-shot, persistent and recursive). */
  readonly watches: number;
}

/** What a collector counts into, and the snapshot it gives. */
export interface CallStats {
  /** One settled call: its latency in ms, its error code when it failed, its frames' bytes. */
  record(op: string, ms: number, code: string | undefined, out: number, got: number): void;
  /** A connection re-established within a session. */
  reconnected(): void;
  /** The figures now, with what the client knows beside the calls. */
  snapshot(renewals: number, watches: number): ClientStats;
}

/**
 * Closures rather than a class: their state minifies to one-letter names, and `record` is a function of its own that
 * a collector can hand to the client as its tap. Per
 * op an array: count, errors, max, then at 3 + i the samples of at most 2^(i/8) µs (sparse).
 */
export function callStats(): CallStats {
  const ops = new Map<string, number[]>();
  const errors: Record<string, number> = {};
  let bytesOut = 0;
  let bytesIn = 0;
  let reconnects = 0;
  return {
    record(op, ms, code, out, got) {
      let c = ops.get(op);
      if (!c) ops.set(op, (c = [0, 0, 0]));
      c[0]!++;
      if (ms > c[2]!) c[2] = ms;
      const i = 3 + (ms > 0.001 ? Math.ceil(Math.log2(ms * 1000) * 8) : 0);
      c[i] = (c[i] ?? 0) + 1;
      if (code) {
        c[1]!++;
        errors[code] = (errors[code] ?? 0) + 1;
      }
      bytesOut += out;
      bytesIn += got;
    },
    reconnected: () => void reconnects++,
    snapshot(renewals, watches) {
      const out: Record<string, OperationStats> = {};
      for (const [op, c] of ops) {
        const [count = 0, errors = 0, max = 0] = c;
        // Nearest rank: the bucket holding the ceil(q * count)-th sample, answered by its upper edge (never past max).
        const at = (q: number): number => {
          let rank = Math.ceil(q * count);
          let i = 3;
          while ((rank -= c[i] ?? 0) > 0) i++;
          return Math.min(max, 2 ** ((i - 3) / 8) / 1000);
        };
        out[op] = { count, errors, p50: at(0.5), p90: at(0.9), p99: at(0.99), max };
      }
      return { ops: out, errors: { ...errors }, bytesOut, bytesIn, reconnects, renewals, watches };
    },
  };
}
