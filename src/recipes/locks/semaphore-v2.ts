/**
 * InterProcessSemaphoreV2: at most `maxLeases` leases held at once across all clients of a path, Curator's
 * algorithm and layout so Curator clients share the count:
 *
 *   <path>/locks/_c_<uuid>-lock-<seq>     a mutex that lets one acquirer at a time in
 *   <path>/leases/_c_<uuid>-lease-<seq>   one ephemeral node per lease
 *
 * Holding the mutex, an acquirer creates its lease node, then waits (watching the leases directory) until the
 * directory has at most maxLeases children; then it releases the mutex and keeps the lease. Because only the
 * mutex holder ever waits, every other lease node belongs to a holder, so the count is exact. As in Curator, all
 * clients must agree on maxLeases; nothing checks it.
 */

import type { ZooKeeperClient } from '../../client.js';
import { ZooKeeperError } from '../../errors.js';
import { abortError, sleep, type RetryPolicy } from '../retry.js';
import { LockInternals, waitForEvent } from './internals.js';
import { Lease, NOT_ACQUIRED, type NotAcquired } from './lease.js';
import { LockLostSignal, type LockLostPolicy } from './lock-lost.js';
import { joinPath, LEASE_NAME, LOCK_NAME, newProtectedId, nodeName, SEMAPHORE_LEASES, SEMAPHORE_LOCKS } from './naming.js';
import { isCode, NodeOps, type CreatedNode } from './node-ops.js';
import { resolveLockOptions, type LockOptions } from './options.js';
import type { LockPort } from './port.js';
import { getsTheLock } from './predicate.js';
import { deadlineOf, ReentrantLock, type AcquireOptions } from './reentrant-lock.js';

/** Options of a semaphore acquire: like AcquireOptions, without an owner (semaphore leases are not re-entrant). */
export type SemaphoreAcquireOptions = Omit<AcquireOptions, 'owner'>;

const EMPTY = new Uint8Array(0);

/** Our lease node vanished while we waited (session lost): start that lease over. */
class LeaseGone extends Error {}

/** Curator's InterProcessSemaphoreV2: at most `maxLeases` leases at a time across every process. */
export class InterProcessSemaphoreV2 {
  private readonly port: LockPort;
  private readonly ops: NodeOps;
  private readonly gate: ReentrantLock;
  private readonly leasesPath: string;
  private readonly retry: RetryPolicy;
  private readonly lockLost: LockLostPolicy;
  private readonly data: Uint8Array | undefined;
  private outstanding = 0;

  constructor(
    client: ZooKeeperClient,
    readonly path: string,
    readonly maxLeases: number,
    options: LockOptions = {},
  ) {
    const resolved = resolveLockOptions(client, path, options, 'InterProcessSemaphoreV2');
    if (!Number.isInteger(maxLeases) || maxLeases < 1) {
      throw new ZooKeeperError('BAD_ARGUMENT', 'BAD_ARGUMENT (InterProcessSemaphoreV2): maxLeases must be a positive integer', {
        op: 'InterProcessSemaphoreV2',
        path,
      });
    }
    this.port = resolved.port;
    this.retry = resolved.retry;
    this.lockLost = resolved.lockLost;
    this.data = resolved.data;
    this.ops = new NodeOps(this.port, this.retry);
    this.leasesPath = joinPath(path, SEMAPHORE_LEASES);
    const locksPath = joinPath(path, SEMAPHORE_LOCKS);
    const internals = new LockInternals(this.port, locksPath, { lockName: LOCK_NAME, sortNames: [LOCK_NAME] }, this.retry);
    this.gate = new ReentrantLock(this.port, internals, () => (sorted, ours) => getsTheLock(sorted, ours, 1), this.lockLost, undefined);
  }

  /**
   * Acquires `qty` leases, all or none: resolves to the leases, or (only with `timeoutMs`) to `{acquired: false}`
   * once the time is up, having returned any taken so far. Rejects with ABORTED when `signal` fires, likewise.
   */
  acquire(qty: number, options?: SemaphoreAcquireOptions & { timeoutMs?: undefined }): Promise<Lease[]>;
  acquire(qty: number, options: SemaphoreAcquireOptions): Promise<Lease[] | NotAcquired>;
  async acquire(qty: number, options: SemaphoreAcquireOptions = {}): Promise<Lease[] | NotAcquired> {
    if (!Number.isInteger(qty) || qty < 1) {
      throw new ZooKeeperError('BAD_ARGUMENT', 'BAD_ARGUMENT (acquire): qty must be a positive integer', { op: 'acquire', path: this.path });
    }
    const deadline = deadlineOf(options, this.port.clock, 'acquire');
    const taken: Lease[] = [];
    let complete = false;
    try {
      for (let i = 0; i < qty; i++) {
        const lease = await this.acquireLease(deadline, options.signal);
        if (lease === undefined) return NOT_ACQUIRED;
        taken.push(lease);
      }
      complete = true;
      return taken;
    } finally {
      if (!complete) await this.returnAll(taken);
    }
  }

  /** One lease, or `{acquired: false}` after `timeoutMs`. */
  acquireOne(options?: SemaphoreAcquireOptions & { timeoutMs?: undefined }): Promise<Lease>;
  acquireOne(options: SemaphoreAcquireOptions): Promise<Lease | NotAcquired>;
  async acquireOne(options: SemaphoreAcquireOptions = {}): Promise<Lease | NotAcquired> {
    const result = await this.acquire(1, options);
    return Array.isArray(result) ? (result[0] as Lease) : result;
  }

  /** Releases every lease given, reporting the first failure after trying them all. */
  async returnAll(leases: readonly Lease[]): Promise<void> {
    const results = await Promise.allSettled(leases.map((lease) => lease.release()));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  }

  /** Leases this object has handed out and not yet released. */
  get leasesHeldInThisProcess(): number {
    return this.outstanding;
  }

  /** The lease nodes (holders, and the one acquirer waiting), full paths. */
  async getParticipantNodes(): Promise<string[]> {
    try {
      return (await this.port.getChildren(this.leasesPath)).map((name) => joinPath(this.leasesPath, name));
    } catch (err) {
      if (isCode(err, 'NONODE')) return [];
      throw err;
    }
  }

  private async acquireLease(deadline: number | undefined, signal: AbortSignal | undefined): Promise<Lease | undefined> {
    const clock = this.port.clock;
    const started = clock.now();
    for (let retryCount = 0; ; retryCount++) {
      const remaining = deadline === undefined ? undefined : Math.max(0, deadline - clock.now());
      const gate = await this.gate.acquire({ ...(remaining === undefined ? {} : { timeoutMs: remaining }), ...(signal === undefined ? {} : { signal }) });
      if (!gate.acquired) return undefined;
      try {
        return await this.leaseUnderGate(deadline, signal);
      } catch (err) {
        if (!(err instanceof LeaseGone)) throw err;
        const delay = this.retry.nextDelay(retryCount, clock.now() - started);
        if (delay === undefined) {
          throw new ZooKeeperError('NONODE', `NONODE (acquire ${this.path}): our lease node vanished while waiting`, {
            op: 'acquire',
            path: this.path,
          });
        }
        await gate.release();
        await sleep(delay, clock, signal);
      } finally {
        await gate.release();
      }
    }
  }

  private async leaseUnderGate(deadline: number | undefined, signal: AbortSignal | undefined): Promise<Lease | undefined> {
    const node = await this.ops.createProtected(this.leasesPath, LEASE_NAME, newProtectedId(), this.data ?? EMPTY, false, signal);
    const name = nodeName(node.path);
    let kept = false;
    try {
      for (;;) {
        if (signal?.aborted) throw abortError(signal, 'acquire');
        const { children, watch } = await this.ops.retrying(() => this.port.getChildrenWatch(this.leasesPath), signal);
        if (!children.includes(name)) throw new LeaseGone();
        if (children.length <= this.maxLeases) {
          kept = true;
          await watch.remove();
          return this.leaseFor(node);
        }
        const outcome = await waitForEvent(watch.fired, this.port.clock, deadline, signal);
        if (outcome === 'fired') continue;
        await watch.remove();
        if (outcome === 'timeout') return undefined;
        throw abortError(signal as AbortSignal, 'acquire');
      }
    } finally {
      if (!kept) await this.ops.deleteOnExit(node.path);
    }
  }

  private leaseFor(node: CreatedNode): Lease {
    const lost = new LockLostSignal(this.port, this.lockLost, node.path);
    this.outstanding++;
    return new Lease(
      {
        port: this.port,
        node: node.path,
        fencingToken: node.stamp.czxid,
        signal: lost.signal,
        releaseOne: async () => {
          lost.dispose();
          try {
            await this.ops.guaranteedDelete(node.path);
          } finally {
            this.outstanding--;
          }
        },
      },
      {},
    );
  }
}
