/**
 * Watches a lock bench run through faults (a LockRunObserver): when each session acquired, what failed and with
 * which code, which leases were lost while held, each session's disconnections, expiries and renewals, and the
 * faults themselves (marked by whoever caused them). `report()` turns that into the report's failover section.
 */

import type { ZooKeeperClient } from '../../../client.js';
import { ZooKeeperError } from '../../../errors.js';
import type { Lease } from '../../../recipes/locks/lease.js';
import type { HolderRole } from '../exclusion.js';
import type { LockRunObserver } from '../run-observer.js';
import type { FailoverReport, FaultEventKind, FaultReport, SessionFaultFigures } from './report.js';
import { windowsAround } from './window.js';

const round = (v: number): number => Math.round(v * 10) / 10;

interface Fault {
  kind: FaultEventKind;
  label: string;
  at: number;
  endedAt: number | null;
  member: number | null;
  pid: number | null;
  servers: (string | null)[];
}

/** What the report needs to know about the run beyond what the observer saw. */
export interface FailoverContext {
  /** ms of contention. */
  elapsedMs: number;
  overlaps: number;
  fencingViolations: number;
  /** The server's `conf` (tickTime, initLimit, syncLimit). */
  settings: Record<string, string>;
  sessionTimeoutAskedMs: number | null;
  ensemble: FailoverReport['ensemble'];
}

/** A fault's handle, to say when it was lifted. */
export interface MarkedFault {
  ended(): void;
}

export class FaultObserver implements LockRunObserver {
  #clients: readonly ZooKeeperClient[] = [];
  #start: number | undefined;
  readonly #bySession: number[][] = [];
  /** Exclusive acquisitions in order: when, and the fencing token. */
  readonly #tokens: { at: number; token: bigint }[] = [];
  readonly #faults: Fault[] = [];
  readonly #figures: SessionFaultFigures[] = [];
  readonly #errors = new Map<string, number>();
  readonly #unsubscribe: (() => void)[] = [];
  readonly #onContending: (startMs: number) => void;
  readonly #onEnded: () => Promise<void>;

  readonly #maxOvertimeMs: number;
  readonly #onOvertime: (waitingFor: number) => void;
  #overtimeTold = false;

  constructor(
    hooks: {
      onContending?: (startMs: number) => void;
      onContentionEnded?: () => Promise<void>;
      /** How long after the last fault the run may go on past its duration (keepRunning); default 120 s. */
      maxOvertimeMs?: number;
      /** Told once when the run goes on past its duration, with the number of sessions it waits for. */
      onOvertime?: (waitingFor: number) => void;
    } = {},
  ) {
    this.#onContending = hooks.onContending ?? (() => {});
    this.#onEnded = hooks.onContentionEnded ?? (() => Promise.resolve());
    this.#maxOvertimeMs = hooks.maxOvertimeMs ?? 120_000;
    this.#onOvertime = hooks.onOvertime ?? (() => {});
  }

  /**
   * True while some session has not acquired since the last fault, for at most maxOvertimeMs after it: a window is
   * measured to every session's first acquisition after the fault, and a run that ended before that would leave it
   * unknown (a fault marked late, or a recovery slower than the rest of the run).
   */
  keepRunning(nowMs: number): boolean {
    const last = this.#faults[this.#faults.length - 1];
    if (last === undefined || this.#start === undefined || nowMs - last.at > this.#maxOvertimeMs) return false;
    const at = last.at - this.#start;
    const waiting = this.#bySession.filter((times) => (times[times.length - 1] ?? -1) <= at).length;
    if (waiting > 0 && !this.#overtimeTold) {
      this.#overtimeTold = true;
      this.#onOvertime(waiting);
    }
    return waiting > 0;
  }

  /**
   * Marks a fault now (or at `atMs`, a performance.now() reading taken just before it was caused). A mark before
   * contention started counts from its start.
   */
  mark(kind: FaultEventKind, label: string, where: { member?: number; pid?: number | undefined; atMs?: number } = {}): MarkedFault {
    const fault: Fault = {
      kind,
      label,
      at: where.atMs ?? performance.now(),
      endedAt: null,
      member: where.member ?? null,
      pid: where.pid ?? null,
      servers: this.#clients.map((c) => c.connectedServer ?? null),
    };
    this.#faults.push(fault);
    return { ended: () => void (fault.endedAt ??= performance.now()) };
  }

  /** Faults marked so far. */
  get faults(): number {
    return this.#faults.length;
  }

  sessionsOpened(clients: readonly ZooKeeperClient[]): void {
    this.#clients = clients;
    clients.forEach((client, session) => {
      const f: SessionFaultFigures = { session, failedAcquires: 0, failedReleases: 0, lostWhileHeld: 0, disconnects: 0, expiries: 0, renewals: 0 };
      this.#figures.push(f);
      this.#bySession.push([]);
      this.#unsubscribe.push(
        client.onStateChange((change) => {
          if (change.event === 'SUSPENDED') f.disconnects++;
          else if (change.event === 'LOST') f.expiries++;
          else if (change.event === 'RECONNECTED' && change.newSession) f.renewals++;
        }),
      );
    });
  }

  contending(startMs: number): void {
    this.#start = startMs;
    this.#onContending(startMs);
  }

  acquired(session: number, atMs: number, lease: Lease, role: HolderRole): void {
    const t = atMs - (this.#start ?? atMs);
    this.#bySession[session]?.push(t);
    if (role === 'exclusive') this.#tokens.push({ at: t, token: lease.fencingToken });
  }

  releasing(session: number, _atMs: number, lease: Lease): void {
    if (!lease.signal.aborted) return;
    this.#figures[session]!.lostWhileHeld++;
    this.#count(lease.signal.reason);
  }

  async failed(session: number, _atMs: number, phase: 'acquire' | 'release', error: unknown): Promise<void> {
    const f = this.#figures[session]!;
    if (phase === 'acquire') f.failedAcquires++;
    else f.failedReleases++;
    this.#count(error);
    // Go on once the session is back; an ended client (closed by the run's clean-up) has nothing to wait for.
    await this.#clients[session]?.waitConnected().catch(() => {});
  }

  async contentionEnded(): Promise<void> {
    for (const off of this.#unsubscribe.splice(0)) off();
    await this.#onEnded();
  }

  /** The failover section; null when the run saw no fault and no failure. */
  report(ctx: FailoverContext): FailoverReport | null {
    const totals = (key: keyof Omit<SessionFaultFigures, 'session'>): number => this.#figures.reduce((s, f) => s + f[key], 0);
    const failures = totals('failedAcquires') + totals('failedReleases') + totals('lostWhileHeld');
    if (this.#faults.length === 0 && failures === 0) return null;
    const start = this.#start ?? 0;
    const num = (key: string): number | null => {
      const v = Number(ctx.settings[key]);
      return ctx.settings[key] !== undefined && Number.isFinite(v) ? v : null;
    };
    const config = { tickTime: num('tickTime'), initLimit: num('initLimit'), syncLimit: num('syncLimit') };
    const negotiated = this.#clients[0]?.negotiatedTimeoutMs ?? 0;
    const { tickTime, initLimit, syncLimit } = config;
    const boundMs = tickTime === null || initLimit === null || syncLimit === null || negotiated === 0 ? null : negotiated + (initLimit + syncLimit) * tickTime;
    return {
      faults: this.#faults.map((f) => this.#faultReport(f, start, ctx.elapsedMs)),
      ensemble: ctx.ensemble,
      sessionTimeoutMs: { asked: ctx.sessionTimeoutAskedMs, negotiated },
      boundMs,
      config,
      failedAcquires: totals('failedAcquires'),
      failedReleases: totals('failedReleases'),
      lostWhileHeld: totals('lostWhileHeld'),
      errors: Object.fromEntries([...this.#errors].sort(([a], [b]) => a.localeCompare(b))),
      disconnects: totals('disconnects'),
      expiries: totals('expiries'),
      renewals: totals('renewals'),
      perSession: this.#figures.map((f) => ({ ...f })),
      exclusionHeld: ctx.overlaps === 0,
      fencingHeld: ctx.fencingViolations === 0,
    };
  }

  #faultReport(f: Fault, start: number, endMs: number): FaultReport {
    const at = Math.max(0, f.at - start);
    const { overall, perSession } = windowsAround(this.#bySession, at, endMs);
    // The tokens on both sides of the stall (the last before it, the one that ended it), or of the fault.
    const from = overall.stallFromMs ?? at;
    let before: bigint | null = null;
    let after: bigint | null = null;
    for (const t of this.#tokens) {
      if (round(t.at) <= from) before = t.token;
      else {
        after = t.token;
        break;
      }
    }
    const epoch = (token: bigint | null): number | null => (token === null ? null : Number(token >> 32n));
    return {
      kind: f.kind,
      label: f.label,
      atMs: round(at),
      endedAtMs: f.endedAt === null ? null : round(f.endedAt - start),
      member: f.member,
      pid: f.pid,
      window: overall,
      perSession: perSession.map((w, session) => ({ session, serverAtFault: f.servers[session] ?? null, ...w })),
      fencing: {
        before: before === null ? null : `0x${before.toString(16)}`,
        after: after === null ? null : `0x${after.toString(16)}`,
        epochBefore: epoch(before),
        epochAfter: epoch(after),
        increasing: before === null || after === null || after > before,
      },
    };
  }

  #count(error: unknown): void {
    const code = error instanceof ZooKeeperError ? error.code : error instanceof Error ? error.name : 'unknown';
    this.#errors.set(code, (this.#errors.get(code) ?? 0) + 1);
  }
}
