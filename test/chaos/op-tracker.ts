/**
 * Every promise the chaos run starts goes through here: the lock calls the workers make, and (through
 * tracked-client.ts) every request the client makes for them, including the ones the recipes make inside.
 *
 * It counts attempts, completions and failures by error code per operation, keeps the still-pending ones so the
 * end of the run can say how many never settled, and gives each one a bound after which the watchdog calls it hung.
 */

import { ZooKeeperError } from '../../src/errors.js';

export interface OpCounts {
  attempted: number;
  completed: number;
  /** Failures by ZooKeeperError code; `UNTYPED` for anything else (which must never happen). */
  failed: Record<string, number>;
}

export interface PendingOp {
  readonly id: number;
  /** The session slot (0..sessions-1) and its client generation, e.g. "s3.2". */
  readonly session: string;
  readonly op: string;
  readonly startedAt: number;
  /** When it counts as hung (undefined: may legitimately wait for ever, e.g. a watch). */
  hangAt: number | undefined;
  hangReported: boolean;
  /** Its bound, and whether the bound holds per attempt (see TrackOptions.perAttempt). */
  readonly boundMs: number | undefined;
  readonly perAttempt: boolean;
}

export interface TrackOptions {
  /** Count it in the operations table (default true; watches are only checked for settling). */
  readonly count?: boolean;
  /** How long it may take before the watchdog calls it hung. */
  readonly boundMs?: number;
  /**
   * A call that sends again after a lost reply (a protected create, a guaranteed delete, a call with a retry
   * policy) is one request per attempt: its bound starts again each time its client connects again.
   */
  readonly perAttempt?: boolean;
}

export class OpTracker {
  readonly ops = new Map<string, OpCounts>();
  readonly pending = new Map<number, PendingOp>();
  readonly untypedNotes: string[] = [];
  private nextId = 1;

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** Watches `promise` (which is returned unchanged) and counts its outcome under `op`. */
  track<T>(session: string, op: string, promise: Promise<T>, options: TrackOptions = {}): Promise<T> {
    const count = options.count ?? true;
    const counts = count ? this.countsOf(op) : undefined;
    if (counts !== undefined) counts.attempted++;
    const id = this.nextId++;
    const startedAt = this.now();
    this.pending.set(id, {
      id,
      session,
      op,
      startedAt,
      hangAt: options.boundMs === undefined ? undefined : startedAt + options.boundMs,
      hangReported: false,
      boundMs: options.boundMs,
      perAttempt: options.perAttempt === true,
    });
    promise.then(
      () => {
        this.pending.delete(id);
        if (counts !== undefined) counts.completed++;
      },
      (err: unknown) => {
        this.pending.delete(id);
        if (counts !== undefined) this.fail(counts, op, err);
      },
    );
    return promise;
  }

  /** Failures over every operation, by code. */
  failuresByCode(): Record<string, number> {
    const total: Record<string, number> = {};
    for (const counts of this.ops.values()) {
      for (const [code, n] of Object.entries(counts.failed)) total[code] = (total[code] ?? 0) + n;
    }
    return total;
  }

  get untyped(): number {
    return this.failuresByCode()['UNTYPED'] ?? 0;
  }

  private fail(counts: OpCounts, op: string, err: unknown): void {
    const code = err instanceof ZooKeeperError ? err.code : 'UNTYPED';
    counts.failed[code] = (counts.failed[code] ?? 0) + 1;
    if (code === 'UNTYPED' && this.untypedNotes.length < 10) {
      this.untypedNotes.push(`${op}: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`);
    }
  }

  private countsOf(op: string): OpCounts {
    let counts = this.ops.get(op);
    if (counts === undefined) {
      counts = { attempted: 0, completed: 0, failed: {} };
      this.ops.set(op, counts);
    }
    return counts;
  }
}
