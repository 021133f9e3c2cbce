/**
 * A lock bench run watched through faults: the faults given are caused on the bench's own ensemble at their
 * moment in the contention, lifted after their FOR (or when contention ends), and any fault marked from outside
 * (`observer.mark`, which the CLI calls on SIGUSR2) is reported the same way, in the report's `failover` section.
 */

import { runLockBench, type LockBenchOptions, type LockReport } from '../lock-bench.js';
import type { BenchEnsemble } from './bench-ensemble.js';
import { FaultObserver } from './fault-observer.js';
import type { FaultSpec } from './fault-spec.js';

export interface FaultRunOptions extends Omit<LockBenchOptions, 'observer'> {
  /** The ensemble to cause `faults` on; required when faults are given. */
  ensemble?: BenchEnsemble | undefined;
  faults?: readonly FaultSpec[] | undefined;
  /** Told, as it happens, each fault caused and lifted (or why one could not be caused). */
  onFault?: (text: string) => void;
  /** Receives the observer before the run starts, so a fault can be marked from outside while it runs. */
  onObserver?: (observer: FaultObserver) => void;
}

export async function runLockBenchWithFaults(opts: FaultRunOptions): Promise<LockReport> {
  const { ensemble, faults = [], onFault = () => {}, onObserver = () => {}, ...lock } = opts;
  if (faults.length > 0 && ensemble === undefined) throw new Error('faults need the bench ensemble (--ensemble) to cause them on');
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const injecting = new Set<Promise<void>>();
  const lifts: (() => void)[] = [];
  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, Math.max(0, ms));
    timers.add(t);
  };
  const secs = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

  const cause = async (spec: FaultSpec, e: BenchEnsemble): Promise<void> => {
    if (lock.signal?.aborted === true) return;
    const leader = await e.leader();
    await e.inject(spec.kind, leader, (fault, atMs) => {
      const marked = observer.mark(spec.kind, fault.label, { member: fault.member, pid: fault.pid, atMs });
      onFault(`fault at ${secs(spec.atMs)}: ${fault.label}\n`);
      if (spec.kind === 'kill-leader') return;
      const lift = (): void => {
        fault.lift();
        marked.ended();
      };
      lifts.push(lift);
      if (spec.forMs !== undefined) {
        later(spec.forMs, () => {
          lift();
          onFault(`fault lifted after ${secs(spec.forMs!)}: ${spec.kind === 'pause-leader' ? 'SIGCONT' : 'links released'} to #${fault.member}\n`);
        });
      }
    });
  };

  // The longest a recovery may take on a sane ensemble is about a session timeout plus an election; this cap
  // only stops a run whose ensemble never comes back.
  const maxOvertimeMs = 2 * (lock.sessionTimeoutMs ?? 30_000) + 30_000;
  const observer = new FaultObserver({
    maxOvertimeMs,
    onOvertime: (waiting) =>
      onFault(`duration over: going on until the ${waiting} session(s) not yet back since the last fault acquire again (at most ${secs(maxOvertimeMs)} after it)\n`),
    onContending: (startMs) => {
      if (ensemble === undefined) return;
      for (const spec of faults) {
        later(startMs + spec.atMs - performance.now(), () => {
          const work = cause(spec, ensemble).catch((err: unknown) => onFault(`fault at ${secs(spec.atMs)} not caused: ${(err as Error).message}\n`));
          injecting.add(work);
          void work.finally(() => injecting.delete(work));
        });
      }
    },
    onContentionEnded: async () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await Promise.allSettled([...injecting]);
      // Whatever still holds a member (a pause or a partition to the end) is lifted, so the floor's second half
      // and the clean-up find a working ensemble.
      for (const lift of lifts) lift();
    },
  });
  onObserver(observer);
  const report = await runLockBench({ ...lock, observer });
  const failover = observer.report({
    elapsedMs: report.elapsedMs,
    overlaps: report.overlaps,
    fencingViolations: report.fencingViolations,
    settings: report.server.settings,
    sessionTimeoutAskedMs: lock.sessionTimeoutMs ?? null,
    ensemble: ensemble === undefined ? null : { size: ensemble.size, members: ensemble.members(), proxied: ensemble.proxied },
  });
  return failover === null ? report : { ...report, failover };
}
