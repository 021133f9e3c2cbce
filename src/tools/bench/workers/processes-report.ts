/** The part of a lock report that only a run of several processes has (LockReport.processes). */

/** One worker of the run: how it ended and what it did. */
export interface WorkerSummary {
  /** Its node under the run's workers/ (w-<seq>). */
  name: string;
  host: string;
  pid: number;
  sessions: number;
  /** finished: its result arrived; lost: its ephemeral node went without a result (it died, failed or was stopped). */
  status: 'finished' | 'lost';
  acquisitions: number;
  elapsedMs: number;
  /** For a lost worker this machine started: how its process ended and the last line it wrote. */
  failure: string | null;
}

/** The mutual-exclusion check across processes: each exclusive holder advances a counter znode with the lock held. */
export interface CrossProcessFencing {
  /** Fencing tokens written (getData, then setData at the version read). */
  writes: number;
  /** setData found the counter changed since it was read: another holder wrote while this one held the lock. */
  versionConflicts: number;
  /** The token found was not older than ours: a holder got the lock out of order. */
  tokensBackwards: number;
}

export interface ProcessesReport {
  run: string;
  path: string;
  /** Workers the run waited for, started on this machine (--processes) and elsewhere (--remote). */
  local: number;
  remote: number;
  workers: WorkerSummary[];
  lost: number;
  fencing: CrossProcessFencing;
  /** Errors by code across the workers' fencing writes (a conflict is counted under fencing, not here). */
  errors: Record<string, number>;
  /** How long the coordinator waited at the barrier for every worker, ms. */
  barrierWaitMs: number;
}
