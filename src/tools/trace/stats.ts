/** Running totals of a trace: what `zkwire trace` prints when it stops (Ctrl-C, SIGTERM or stop()). */

import { errName } from '../../protocol/index.js';
import { LatencyHistogram } from './latency-histogram.js';
import type { TraceRecord } from './records.js';

/** Latency percentiles, in ms. */
export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

/** The totals of one op. */
export interface OpSummary {
  /** Requests seen (c2s). */
  requests: number;
  /** Replies seen (s2c). */
  replies: number;
  /** Replies with a non-zero result, by ZooKeeper's error name. */
  errors: Record<string, number>;
  /** Request → reply, in ms; null when no reply was matched. */
  latencyMs: LatencySummary | null;
}

/** The totals of a trace, as `zkwire trace` prints them when it stops. */
export interface TraceSummary {
  connections: number;
  frames: { c2s: number; s2c: number };
  bytes: { c2s: number; s2c: number };
  /** Frames the describer could not decode, plus stretches of unframeable or incomplete bytes. */
  undecodable: number;
  notifications: number;
  /** By op name (`connect` for the handshake, `ping`, `getData`, ...). */
  ops: Record<string, OpSummary>;
  /** Error replies over all ops, by name. */
  errors: Record<string, number>;
}

interface OpTotals {
  requests: number;
  replies: number;
  errors: Map<string, number>;
  latency: LatencyHistogram;
}

export class TraceStats {
  private connections = 0;
  private readonly frames = { c2s: 0, s2c: 0 };
  private readonly bytes = { c2s: 0, s2c: 0 };
  private undecodable = 0;
  private notifications = 0;
  private readonly ops = new Map<string, OpTotals>();
  private readonly errors = new Map<string, number>();

  add(rec: TraceRecord): void {
    switch (rec.type) {
      case 'open':
        this.connections++;
        return;
      case 'close':
        return;
      case 'raw':
        this.bytes[rec.dir] += rec.bytes.length;
        if (rec.error !== undefined) this.undecodable++;
        return;
      case 'frame':
        break;
    }
    const { frame, dir } = rec;
    this.frames[dir]++;
    this.bytes[dir] += rec.bytes.length;
    if (frame.error !== undefined) {
      this.undecodable++;
      return;
    }
    switch (frame.kind) {
      case 'notification':
        this.notifications++;
        return;
      case 'connect-request':
        this.op('connect').requests++;
        return;
      case 'connect-response':
        this.reply('connect', 0, rec.latencyMs);
        return;
      case 'request':
        this.op(frame.op ?? `op(${frame.opcode})`).requests++;
        return;
      case 'reply':
        this.reply(frame.op ?? `op(${frame.opcode})`, frame.err ?? 0, rec.latencyMs);
        return;
      default:
        // four-letter-word text: counted as frames and bytes only
        return;
    }
  }

  summary(): TraceSummary {
    const ops: Record<string, OpSummary> = {};
    for (const name of [...this.ops.keys()].sort()) {
      const t = this.ops.get(name)!;
      const h = t.latency;
      ops[name] = {
        requests: t.requests,
        replies: t.replies,
        errors: Object.fromEntries(t.errors),
        latencyMs: h.count === 0 ? null : { count: h.count, p50: round(h.percentile(0.5)!), p99: round(h.percentile(0.99)!), max: round(h.max!) },
      };
    }
    return {
      connections: this.connections,
      frames: { ...this.frames },
      bytes: { ...this.bytes },
      undecodable: this.undecodable,
      notifications: this.notifications,
      ops,
      errors: Object.fromEntries([...this.errors].sort(([a], [b]) => a.localeCompare(b))),
    };
  }

  private reply(op: string, err: number, latencyMs: number | undefined): void {
    const t = this.op(op);
    t.replies++;
    if (latencyMs !== undefined) t.latency.add(latencyMs);
    if (err !== 0) {
      const name = errName(err);
      t.errors.set(name, (t.errors.get(name) ?? 0) + 1);
      this.errors.set(name, (this.errors.get(name) ?? 0) + 1);
    }
  }

  private op(name: string): OpTotals {
    let t = this.ops.get(name);
    if (t === undefined) {
      t = { requests: 0, replies: 0, errors: new Map(), latency: new LatencyHistogram() };
      this.ops.set(name, t);
    }
    return t;
  }
}

/** Three decimals (µs resolution) is all a proxy's clock can honestly claim. */
function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
