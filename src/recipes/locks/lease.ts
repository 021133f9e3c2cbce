/**
 * What an acquire returns. A Lease is a held lock (or one semaphore lease): the node that holds it, a fencing
 * token, the lock-lost signal, guarded writes, and release. It is AsyncDisposable, so
 * `await using lease = await mutex.acquire()` releases at the end of the scope. A timed-out acquire returns
 * NOT_ACQUIRED instead, which is disposable too (doing nothing), so the same `await using` line works with a
 * timeout: `if (!lease.acquired) return;`.
 */

import type { ZooKeeperClient } from '../../client.js';
import type { OpResult, WriteOp } from '../../client/multi.js';

/** The shared state behind one or more leases (re-entrant leases of one owner share one node). */
export interface LeaseBackend {
  readonly client: ZooKeeperClient;
  /** Full path of the lock node. */
  readonly node: string;
  readonly fencingToken: bigint;
  readonly signal: AbortSignal;
  /** Called once per lease when that lease is released. */
  releaseOne(): Promise<void>;
}

/**
 * A held lock: release it with `release()` or `await using`. `signal` aborts when the lock may be lost; `fencingToken`
 * orders holders.
 */
export class Lease implements AsyncDisposable {
  readonly acquired = true as const;
  #releasing: Promise<void> | undefined;

  readonly #backend: LeaseBackend;

  constructor(
    backend: LeaseBackend,
    /** The owner this lease was taken for; pass it (or the lease) as `owner` to re-enter. */
    readonly owner: object,
  ) {
    this.#backend = backend;
  }

  /** Full path of the node that holds the lock. */
  get node(): string {
    return this.#backend.node;
  }

  /**
   * The czxid of the lock node: it strictly increases across every holder of this lock for the life of the
   * ensemble, even when the lock directory is deleted and created again (sequence numbers restart; zxids never
   * do). Give it to the guarded resource so it can refuse a holder older than one it has already seen.
   */
  get fencingToken(): bigint {
    return this.#backend.fencingToken;
  }

  /** Aborts when holding can no longer be trusted (see lock-lost.ts); its reason says why. */
  get signal(): AbortSignal {
    return this.#backend.signal;
  }

  /** True once release() has been called on this lease. */
  get released(): boolean {
    return this.#releasing !== undefined;
  }

  /**
   * Releases this lease. For the last lease on a node, resolves once the node is deleted (retrying through
   * reconnects) or the session has ended. Calling it again returns the same promise.
   */
  release(): Promise<void> {
    this.#releasing ??= this.#backend.releaseOne();
    return this.#releasing;
  }

  /** `await using` support: releases the lock. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.release();
  }

  /**
   * Runs `ops` as one multi that succeeds only while our lock node still exists: a check on it goes first.
   * After our session has ended (and someone else may hold the lock) the whole multi fails with NONODE (or the
   * session's error) and none of the writes happens. Results are the client's multi results for `ops`
   * (the check's result removed).
   */
  async guardedMulti(ops: readonly WriteOp[]): Promise<OpResult[]> {
    const { client, node } = this.#backend;
    const results = await client.multi([{ kind: 'check', path: node, version: -1 }, ...ops]);
    return results.slice(1);
  }
}

/** What a timed-out acquire returns. */
export interface NotAcquired extends AsyncDisposable {
  readonly acquired: false;
}

/** What an acquire with `timeoutMs` resolves with when the time ran out: `{ acquired: false }`. */
export const NOT_ACQUIRED: NotAcquired = Object.freeze({
  acquired: false as const,
  [Symbol.asyncDispose]: (): Promise<void> => Promise.resolve(),
});
