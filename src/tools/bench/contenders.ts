/**
 * One contender per session for each kind of lock the bench measures. Each session gets its own lock object, as
 * separate processes would: nothing is shared between contenders but the server.
 */

import type { ZooKeeperClient } from '../../client.js';
import type { Lease } from '../../recipes/locks/lease.js';
import { InterProcessMutex } from '../../recipes/locks/mutex.js';
import { InterProcessReadWriteLock } from '../../recipes/locks/read-write-lock.js';
import { InterProcessSemaphoreV2 } from '../../recipes/locks/semaphore-v2.js';
import type { HolderRole } from './exclusion.js';

export type LockKind = 'mutex' | 'read-write' | 'semaphore';
export const LOCK_KINDS: readonly LockKind[] = ['mutex', 'read-write', 'semaphore'];

export interface Contender {
  readonly role: HolderRole;
  acquire(): Promise<Lease>;
}

/**
 * read-write: even-numbered sessions write and odd ones read, so both the exclusive and the shared path are
 * measured (K=1 is a lone writer). semaphore: `leases` leases shared by all sessions.
 */
export function makeContender(kind: LockKind, client: ZooKeeperClient, path: string, index: number, leases: number): Contender {
  switch (kind) {
    case 'mutex': {
      const mutex = new InterProcessMutex(client, path);
      return { role: 'exclusive', acquire: () => mutex.acquire() };
    }
    case 'read-write': {
      const lock = new InterProcessReadWriteLock(client, path);
      const half = index % 2 === 0 ? lock.writeLock : lock.readLock;
      return { role: index % 2 === 0 ? 'exclusive' : 'shared', acquire: () => half.acquire() };
    }
    case 'semaphore': {
      const semaphore = new InterProcessSemaphoreV2(client, path, leases);
      return { role: 'lease', acquire: () => semaphore.acquireOne() };
    }
  }
}
