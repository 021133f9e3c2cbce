/**
 * InterProcessMutex: a re-entrant, fair lock shared across processes (and with Curator clients on the same path).
 * Nodes are `<path>/_c_<uuid>-lock-<seq>`; the lowest sequence holds; each waiter watches only the node just
 * ahead of it. Re-entrancy is by owner (see reentrant-lock.ts and the README): `acquire()` without an owner is a
 * new, independent contender; `acquire({ owner: lease })` re-enters.
 */

import type { ZooKeeperClient } from '../../client.js';
import { LockInternals } from './internals.js';
import type { Lease, NotAcquired } from './lease.js';
import { LOCK_NAME } from './naming.js';
import { resolveLockOptions, type LockOptions } from './options.js';
import { mutexVerdict } from './predicate.js';
import { ReentrantLock, type AcquireOptions, type InterProcessLock } from './reentrant-lock.js';
import type { RevocationListener } from './revocation.js';

const LOCK_NAMES = [LOCK_NAME] as const;

export class InterProcessMutex implements InterProcessLock {
  readonly #lock: ReentrantLock;

  constructor(
    client: ZooKeeperClient,
    /** The lock directory. */
    readonly path: string,
    options: LockOptions = {},
  ) {
    const { ops, lockLost, retry, data } = resolveLockOptions(client, path, options, 'InterProcessMutex');
    const internals = new LockInternals(ops, path, { lockName: LOCK_NAME, sortNames: LOCK_NAMES }, retry);
    this.#lock = new ReentrantLock(ops, internals, () => (children, ours, limit) => mutexVerdict(children, ours, LOCK_NAMES, limit), lockLost, data);
  }

  /**
   * Waits until this owner holds the mutex. Resolves to a Lease, or (only with `timeoutMs`) to
   * `{acquired: false}` once the time is up; rejects with ABORTED when `signal` fires. Neither leaves a node.
   */
  acquire(options?: AcquireOptions & { timeoutMs?: undefined }): Promise<Lease>;
  acquire(options: AcquireOptions): Promise<Lease | NotAcquired>;
  acquire(options: AcquireOptions = {}): Promise<Lease | NotAcquired> {
    return this.#lock.acquire(options);
  }

  /** Releases one lease (same as `lease.release()`). */
  release(lease: Lease): Promise<void> {
    return lease.release();
  }

  /** True while any owner in this process holds the mutex (including while its node is being deleted). */
  isAcquiredInThisProcess(): boolean {
    return this.#lock.isAcquiredInThisProcess();
  }

  /** True while `owner` (an owner object or a Lease) holds the mutex. */
  isHeldBy(owner: object): boolean {
    return this.#lock.isHeldBy(owner);
  }

  /** Every contender's node, full paths in lock order (the holder first). */
  getParticipantNodes(): Promise<string[]> {
    return this.#lock.participantNodes();
  }

  /** Calls `listener` when someone asks a holder of this mutex to release (attemptRevoke). Set before acquiring. */
  makeRevocable(listener: RevocationListener): void {
    this.#lock.makeRevocable(listener);
  }
}
