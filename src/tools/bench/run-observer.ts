/**
 * What a lock bench run tells an observer that watches it through faults (failover/): its sessions, each
 * acquisition and release, and each failure. With an observer, a failed acquire or release is counted by the
 * observer and that session goes on with its next acquisition; without one, the first failure ends the run. All
 * times are performance.now() readings.
 */

import type { ZooKeeperClient } from '../../client.js';
import type { Lease } from '../../recipes/locks/lease.js';
import type { HolderRole } from './exclusion.js';

export interface LockRunObserver {
  /** The contending sessions are open, in session order. */
  sessionsOpened(clients: readonly ZooKeeperClient[]): void;
  /** Contention starts at `startMs`; the run's timeline counts from here. */
  contending(startMs: number): void;
  /** Session `session` holds `lease` from `atMs`, in `role` (only exclusive holders' fencing tokens are ordered). */
  acquired(session: number, atMs: number, lease: Lease, role: HolderRole): void;
  /** Session `session` stops holding `lease` at `atMs` (it calls release next). */
  releasing(session: number, atMs: number, lease: Lease): void;
  /** An acquire or a release of `session` failed at `atMs`; the session waits for the promise, then goes on. */
  failed(session: number, atMs: number, phase: 'acquire' | 'release', error: unknown): Promise<void>;
  /**
   * Asked once the run's duration is up (closed loop): true keeps contention going, so a fault late in the run still
   * gets its window measured instead of ending with sessions that have not acquired again. Once it says false, the
   * run ends.
   */
  keepRunning?(nowMs: number): boolean;
  /** Contention is over (the floor's second half comes next): whatever a fault still holds is healed here. */
  contentionEnded(): Promise<void>;
}
