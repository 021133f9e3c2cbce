/**
 * InterProcessMultiLock: several locks taken as one, in the order given, all or nothing. If one cannot be taken
 * (timeout, abort, error), those already taken are released in reverse order before the acquire returns. Release
 * goes in reverse order too and tries every lock, reporting all failures (an AggregateError of them when more
 * than one fails). To avoid deadlock between multi-locks, give every one the same locks in the same order.
 */

import type { ZooKeeperClient } from '../../client.js';
import { Deadline } from '../common/deadline.js';
import { aborted, badArgument } from '../common/errors.js';
import { Lease, NOT_ACQUIRED, type NotAcquired } from './lease.js';
import { InterProcessMutex } from './mutex.js';
import type { LockOptions } from './options.js';
import { ownerOf, type AcquireOptions, type InterProcessLock } from './reentrant-lock.js';
import { clockOf, type Clock } from '../../session/clock.js';

/** The leases of one multi-lock acquisition, released together (in reverse). */
export class MultiLease implements AsyncDisposable {
  readonly acquired = true as const;
  #releasing: Promise<void> | undefined;

  constructor(
    /** One lease per lock, in acquisition order. */
    readonly leases: readonly Lease[],
    readonly owner: object,
  ) {}

  /** Aborts when any of the locks may be lost. */
  get signal(): AbortSignal {
    return AbortSignal.any(this.leases.map((l) => l.signal));
  }

  /** Whether `release()` has been called. */
  get released(): boolean {
    return this.#releasing !== undefined;
  }

  /** Releases every lease, in the reverse order of acquisition. */
  release(): Promise<void> {
    this.#releasing ??= releaseInReverse(this.leases);
    return this.#releasing;
  }

  /** `await using` support: releases every lease. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.release();
  }
}

async function releaseInReverse(leases: readonly Lease[]): Promise<void> {
  const failures: unknown[] = [];
  for (const lease of [...leases].reverse()) {
    try {
      await lease.release();
    } catch (err) {
      failures.push(err);
    }
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, `${failures.length} locks failed to release`);
}

/** Several locks taken as one (Curator's InterProcessMultiLock): all are acquired, or none is held. */
export class InterProcessMultiLock {
  readonly #locks: readonly InterProcessLock[];
  readonly #clock: Clock;

  /** From lock objects of any kind, or from paths (each an InterProcessMutex on `client`). */
  constructor(locks: readonly InterProcessLock[], options?: { clock?: Clock });
  constructor(client: ZooKeeperClient, paths: readonly string[], options?: LockOptions);
  constructor(
    first: readonly InterProcessLock[] | ZooKeeperClient,
    second?: readonly string[] | { clock?: Clock },
    third?: LockOptions,
  ) {
    if (Array.isArray(first)) {
      this.#locks = [...(first as readonly InterProcessLock[])];
      this.#clock = clockOf((second as { clock?: Clock } | undefined)?.clock);
    } else {
      const paths = second as readonly string[] | undefined;
      if (!Array.isArray(paths)) {
        throw badArgument('InterProcessMultiLock', undefined, 'paths must be an array');
      }
      this.#locks = paths.map((p) => new InterProcessMutex(first as ZooKeeperClient, p, third));
      this.#clock = clockOf(third?.clock);
    }
  }

  /**
   * Takes every lock in order for one owner (re-entrant locks re-enter for it). Resolves to a MultiLease, or
   * (only with `timeoutMs`, a budget for the whole set) to `{acquired: false}` with nothing held.
   */
  acquire(options?: AcquireOptions & { timeoutMs?: undefined }): Promise<MultiLease>;
  acquire(options: AcquireOptions): Promise<MultiLease | NotAcquired>;
  async acquire(options: AcquireOptions = {}): Promise<MultiLease | NotAcquired> {
    // one signal for the whole set: each lock is given only that (or, for timeoutMs: 0, one try each)
    const deadline = new Deadline(options, 'InterProcessMultiLock.acquire', undefined, this.#clock);
    const taken: Lease[] = [];
    try {
      const owner = ownerOf(options, 'acquire');
      const { signal, tryOnce } = deadline;
      for (const lock of this.#locks) {
        if (signal?.aborted === true) throw aborted(signal, 'acquire');
        const result = await lock.acquire({ owner, ...(tryOnce ? { timeoutMs: 0 } : {}), ...(signal === undefined ? {} : { signal }) });
        if (!result.acquired) {
          await releaseInReverse(taken).catch(() => undefined);
          return NOT_ACQUIRED;
        }
        taken.push(result);
      }
      return new MultiLease(taken, owner);
    } catch (err) {
      // the acquire's own error is the one to report; release failures here would only hide it
      await releaseInReverse(taken).catch(() => undefined);
      deadline.settle(err);
      return NOT_ACQUIRED;
    } finally {
      deadline[Symbol.dispose]();
    }
  }

  /** True only when every lock is held in this process. */
  isAcquiredInThisProcess(): boolean {
    return this.#locks.every((lock) => lock.isAcquiredInThisProcess());
  }
}
