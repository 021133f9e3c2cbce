/** What a lock bench run says about the faults in it (injected or marked): the report's `failover` section. */

import type { FaultKind } from './fault-spec.js';
import type { Window } from './window.js';

/** A fault the bench caused (`kill-leader`, …) or one the operator marked (`mark`: SIGUSR2 to the bench). */
export type FaultEventKind = FaultKind | 'mark';

export interface FaultReport {
  kind: FaultEventKind;
  /** How it was caused or marked, for people: "SIGKILL member #1 (pid 4242)", "SIGUSR2". */
  label: string;
  /** When, ms after contention started. */
  atMs: number;
  /** When a pause or partition was lifted, ms after contention started; null if it lasted to the end or was a kill. */
  endedAtMs: number | null;
  /** The member index and pid it hit (null for a mark). */
  member: number | null;
  pid: number | null;
  /** Over all sessions: the lock's unavailability. */
  window: Window;
  /** Per session: its own unavailability, and the server it was connected to when the fault came. */
  perSession: (Window & { session: number; serverAtFault: string | null })[];
  /**
   * Fencing across the fault: the last token handed out before it and the first after (hex), and their epochs
   * (the zxid's high 32 bits: a new leader starts a new epoch). Null where no exclusive acquisition was seen.
   */
  fencing: { before: string | null; after: string | null; epochBefore: number | null; epochAfter: number | null; increasing: boolean };
}

export interface SessionFaultFigures {
  session: number;
  /** Acquires and releases that failed, and leases whose lock-lost signal fired while they were held. */
  failedAcquires: number;
  failedReleases: number;
  lostWhileHeld: number;
  /** Connection lost (SUSPENDED), session expired (LOST), new session opened after an expiry. */
  disconnects: number;
  expiries: number;
  renewals: number;
}

export interface FailoverReport {
  faults: FaultReport[];
  /** The ensemble the bench started (--ensemble), null on a user's own server. */
  ensemble: { size: number; members: { connectString: string; proxy: string | null; pid: number | null }[]; proxied: boolean } | null;
  /** The contending sessions' timeout: asked (null: the client's default) and granted by the server. */
  sessionTimeoutMs: { asked: number | null; negotiated: number };
  /**
   * The window a failover should stay under on this configuration: the negotiated session timeout plus
   * (initLimit + syncLimit) × tickTime from the server's `conf` (a follower gives up on a silent leader after
   * syncLimit ticks, and a new leader must have its quorum synced within initLimit ticks); null when `conf` did
   * not say.
   */
  boundMs: number | null;
  /** What the bound was computed from. */
  config: { tickTime: number | null; initLimit: number | null; syncLimit: number | null };
  failedAcquires: number;
  failedReleases: number;
  lostWhileHeld: number;
  /** Every failure and every lock-lost reason, by error code. */
  errors: Record<string, number>;
  disconnects: number;
  expiries: number;
  renewals: number;
  perSession: SessionFaultFigures[];
  /** Mutual exclusion and fencing over the whole run (the bench's checker). */
  exclusionHeld: boolean;
  fencingHeld: boolean;
}
