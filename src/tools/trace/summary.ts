/**
 * The summary `zkwire trace` prints when it stops (Ctrl-C, SIGTERM or stop()): a sink over the proxy's capture
 * events, counting per op with the same totals table `zkwire analyze` uses (shared/op-totals.ts).
 */

import { errName } from '../../protocol/index.js';
import type { CaptureEvent, FrameEvent } from '../capture/events.js';
import type { LatencySummary } from '../shared/histogram.js';
import { OpTotalsTable, replied } from '../shared/op-totals.js';

export type { LatencySummary };

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

/** Far more op names than ZooKeeper has: only garbage opcodes could reach it, and they fold into "(other)". */
const MAX_OPS = 1000;

export class TraceSummarizer {
  #connections = 0;
  readonly #frames = { c2s: 0, s2c: 0 };
  readonly #bytes = { c2s: 0, s2c: 0 };
  #undecodable = 0;
  #notifications = 0;
  readonly #ops = new OpTotalsTable(MAX_OPS);
  readonly #errors = new Map<string, number>();

  add(ev: CaptureEvent): void {
    switch (ev.type) {
      case 'open':
        this.#connections++;
        return;
      case 'gap':
        this.#bytes[ev.dir] += ev.undecoded?.bytes.length ?? 0;
        if (ev.continues !== true) this.#undecodable++;
        return;
      case 'frame':
        this.#frame(ev);
        return;
      default:
        return;
    }
  }

  #frame(ev: FrameEvent): void {
    const { frame, dir } = ev;
    this.#frames[dir]++;
    this.#bytes[dir] += ev.size;
    if (frame.error !== undefined) {
      this.#undecodable++;
      return;
    }
    switch (frame.kind) {
      case 'notification':
        this.#notifications++;
        return;
      case 'connect-request':
        this.#ops.row('connect').requests++;
        return;
      case 'connect-response':
        this.#reply('connect', 0, ev.latencyMs);
        return;
      case 'request':
        this.#ops.row(frame.op ?? `op(${frame.opcode})`).requests++;
        return;
      case 'reply':
        this.#reply(frame.op ?? `op(${frame.opcode})`, frame.err ?? 0, ev.latencyMs);
        return;
      default:
        // four-letter-word text: counted as frames and bytes only
        return;
    }
  }

  summary(): TraceSummary {
    const ops: Record<string, OpSummary> = {};
    for (const row of this.#ops.report('key')) ops[row.key] = { requests: row.requests, replies: row.replies, errors: row.errors, latencyMs: row.latencyMs };
    return {
      connections: this.#connections,
      frames: { ...this.#frames },
      bytes: { ...this.#bytes },
      undecodable: this.#undecodable,
      notifications: this.#notifications,
      ops,
      errors: Object.fromEntries([...this.#errors].sort(([a], [b]) => a.localeCompare(b))),
    };
  }

  #reply(op: string, err: number, latencyMs: number | undefined): void {
    const name = err === 0 ? undefined : errName(err);
    replied(this.#ops.row(op), name, latencyMs);
    if (name !== undefined) this.#errors.set(name, (this.#errors.get(name) ?? 0) + 1);
  }
}
