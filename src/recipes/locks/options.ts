/** Options every lock recipe takes, and their defaults. */

import type { ZooKeeperClient } from '../../client.js';
import { ZooKeeperError } from '../../errors.js';
import { clockOf, type Clock } from '../../session/clock.js';
import { exponentialBackoff, type RetryPolicy } from '../retry.js';
import { clientPort } from './client-port.js';
import type { LockLostPolicy } from './lock-lost.js';
import { isValidLockPath } from './naming.js';
import type { LockPort } from './port.js';

/** Options of the lock recipes. */
export interface LockOptions {
  /**
   * When to abort a lease's lock-lost signal: `suspended` (default) as soon as the connection drops, or `lost`
   * only once the session has ended. See lock-lost.ts for the trade-off.
   */
  readonly lockLost?: LockLostPolicy;
  /** How an acquire retries after losing its node or a connection. Default exponentialBackoff(). */
  readonly retry?: RetryPolicy;
  /** Data for our lock nodes (empty by default). */
  readonly data?: Uint8Array;
  /** Timers and time for deadlines (tests). Default: the runtime's. */
  readonly clock?: Clock;
}

export interface ResolvedLockOptions {
  readonly port: LockPort;
  readonly lockLost: LockLostPolicy;
  readonly retry: RetryPolicy;
  readonly data: Uint8Array | undefined;
}

export function resolveLockOptions(
  client: ZooKeeperClient,
  path: string,
  options: LockOptions,
  what: string,
): ResolvedLockOptions {
  if (!isValidLockPath(path) || path === '/') {
    throw new ZooKeeperError('BAD_ARGUMENT', `BAD_ARGUMENT (${what} ${String(path)}): not a valid lock path`, {
      op: what,
      path: String(path),
    });
  }
  const lockLost = options.lockLost ?? 'suspended';
  if (lockLost !== 'suspended' && lockLost !== 'lost') {
    throw new ZooKeeperError('BAD_ARGUMENT', `BAD_ARGUMENT (${what}): lockLost must be "suspended" or "lost"`, { op: what, path });
  }
  return {
    port: clientPort(client, clockOf(options.clock)),
    lockLost,
    retry: options.retry ?? exponentialBackoff(),
    data: options.data,
  };
}
