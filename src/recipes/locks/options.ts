/** Options every lock recipe takes, and their defaults. */

import type { ZooKeeperClient } from '../../client.js';
import { clockOf, type Clock } from '../../session/clock.js';
import { badArgument } from '../common/errors.js';
import { NodeOps } from '../common/nodes.js';
import { isValidNodePath } from '../common/znode-names.js';
import { exponentialBackoff, type RetryPolicy } from '../../session/retry-policy.js';
import type { LockLostPolicy } from './lock-lost.js';

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
  /** The recipe foundation over the client: every node operation of the lock goes through it. */
  readonly ops: NodeOps;
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
  if (typeof path !== 'string' || !isValidNodePath(path) || path === '/') throw badArgument(what, String(path), 'not a valid lock path');
  const lockLost = options.lockLost ?? 'suspended';
  if (lockLost !== 'suspended' && lockLost !== 'lost') {
    throw badArgument(what, path, 'lockLost must be "suspended" or "lost"');
  }
  const retry = options.retry ?? exponentialBackoff();
  return {
    ops: new NodeOps(client, { retry, clock: clockOf(options.clock) }),
    lockLost,
    retry,
    data: options.data,
  };
}
