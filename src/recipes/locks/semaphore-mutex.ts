/**
 * InterProcessSemaphoreMutex: a mutex that is NOT re-entrant: a semaphore of one lease, as in Curator (same
 * nodes: `<path>/locks/...` and `<path>/leases/...`). Use it where a second acquire by the same code must wait
 * like anyone else's.
 */

import type { ZooKeeperClient } from '../../client.js';
import type { Lease, NotAcquired } from './lease.js';
import type { LockOptions } from './options.js';
import type { AcquireOptions, InterProcessLock } from './reentrant-lock.js';
import { InterProcessSemaphoreV2 } from './semaphore-v2.js';

export class InterProcessSemaphoreMutex implements InterProcessLock {
  readonly #semaphore: InterProcessSemaphoreV2;

  constructor(
    client: ZooKeeperClient,
    readonly path: string,
    options: LockOptions = {},
  ) {
    this.#semaphore = new InterProcessSemaphoreV2(client, path, 1, options);
  }

  /** Waits for the one lease. `owner` is ignored: this lock never re-enters. */
  acquire(options?: AcquireOptions & { timeoutMs?: undefined }): Promise<Lease>;
  acquire(options: AcquireOptions): Promise<Lease | NotAcquired>;
  acquire(options: AcquireOptions = {}): Promise<Lease | NotAcquired> {
    const { owner: _ignored, ...rest } = options;
    return this.#semaphore.acquireOne(rest);
  }

  /** Releases a lease (the same as `lease.release()`). */
  release(lease: Lease): Promise<void> {
    return lease.release();
  }

  isAcquiredInThisProcess(): boolean {
    return this.#semaphore.leasesHeldInThisProcess > 0;
  }

  /** The lease nodes of every process holding or waiting for the lock. */
  getParticipantNodes(): Promise<string[]> {
    return this.#semaphore.getParticipantNodes();
  }
}
