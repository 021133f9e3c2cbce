/**
 * A re-entrant lock keyed by owner: the shared body of InterProcessMutex and both halves of the read/write lock.
 *
 * Ownership in JavaScript. Curator keys re-entrancy by thread; we have no threads, and many async flows share
 * one lock object. So ownership is explicit: every acquire is for an *owner*, an object the caller names.
 *  - `acquire()` with no owner acquires for a fresh owner: two independent flows calling it on the same object
 *    queue on ZooKeeper like two processes would, and exclude each other.
 *  - `acquire({ owner })` with an owner that already holds the lock re-enters at once (a hold count, one node).
 *    A Lease works as an owner (`acquire({ owner: lease })`), so nested code given the lease can re-enter, and
 *    any object may serve (a request context, say) when a flow wants several locks under one identity.
 *  - concurrent acquires for one owner while it does not hold yet share one attempt (no second node queueing
 *    behind the first, which would deadlock), then each gets its own lease.
 * Each lease is released once; the node is deleted when the owner's last lease is released.
 */

import { Deadline } from '../common/deadline.js';
import { aborted, badArgument, recipeError } from '../common/errors.js';
import type { NodeOps } from '../common/nodes.js';
import { waitForEvent } from '../retry.js';
import type { Decide, HeldNode, LockInternals } from './internals.js';
import { Lease, NOT_ACQUIRED, type LeaseBackend, type NotAcquired } from './lease.js';
import { LockLostSignal, type LockLostPolicy } from './lock-lost.js';
import { watchRevocation, type RevocationListener } from './revocation.js';

/** Options of `acquire` on every lock. */
export interface AcquireOptions {
  /**
   * Give up after this many milliseconds, resolving to `{acquired: false}`. Default (and Infinity): wait for ever.
   * Any finite length is honoured, also past the runtime timer's 24.8-day limit; NaN or negative is BAD_ARGUMENT.
   */
  readonly timeoutMs?: number;
  /** Cancels the attempt: the acquire rejects with ABORTED (or the signal's ZooKeeperError reason). */
  readonly signal?: AbortSignal;
  /** Acquire on behalf of this owner; an owner that holds the lock re-enters. A Lease stands for its owner. */
  readonly owner?: object;
}

/** What every lock object offers (mutex, semaphore mutex, read lock, write lock, multi-lock). */
export interface InterProcessLock {
  /** Waits until the lock is held; resolves with the lease. */
  acquire(options?: AcquireOptions & { timeoutMs?: undefined }): Promise<Lease>;
  /** Waits at most `options.timeoutMs`; resolves with NOT_ACQUIRED if the time runs out. */
  acquire(options: AcquireOptions): Promise<Lease | NotAcquired>;
  /** True while any owner in this process holds the lock (or its node is still being deleted). */
  isAcquiredInThisProcess(): boolean;
}

/** One owner's hold: its node and how many of its leases are open. */
interface Hold {
  readonly node: HeldNode;
  count: number;
  readonly lost: LockLostSignal;
  readonly stopRevocation: () => void;
  /** Set while the node is being deleted; the hold stays until it is gone. */
  releasing: Promise<void> | undefined;
}

export function ownerOf(options: AcquireOptions, op: string): object {
  const { owner } = options;
  if (owner === undefined) return {};
  if (owner instanceof Lease) return owner.owner;
  if (owner === null || (typeof owner !== 'object' && typeof owner !== 'function')) {
    throw badArgument(op, undefined, 'owner must be an object or a Lease');
  }
  return owner;
}

export class ReentrantLock {
  readonly #holds = new Map<object, Hold>();
  /** Owners with an attempt in flight. */
  readonly #entering = new Map<object, Promise<unknown>>();
  #revocationListener: RevocationListener | undefined;

  readonly #ops: NodeOps;
  readonly #internals: LockInternals;
  readonly #decideFor: (owner: object) => Decide;
  readonly #lockLost: LockLostPolicy;
  readonly #data: Uint8Array | undefined;

  constructor(
    ops: NodeOps,
    internals: LockInternals,
    /** The predicate for an attempt by this owner (the read lock lets its owner's write lock through). */
    decideFor: (owner: object) => Decide,
    lockLost: LockLostPolicy,
    data: Uint8Array | undefined,
  ) {
    this.#ops = ops;
    this.#internals = internals;
    this.#decideFor = decideFor;
    this.#lockLost = lockLost;
    this.#data = data;
  }

  /** Asks the holder's listener to release when someone writes the revoke message into its node. */
  makeRevocable(listener: RevocationListener): void {
    this.#revocationListener = listener;
  }

  /** The node `owner` holds, if it holds the lock (on the client's current session). */
  heldNodeOf(owner: object): HeldNode | undefined {
    const hold = this.#holds.get(owner);
    return hold !== undefined && hold.releasing === undefined && this.#onCurrentSession(hold) ? hold.node : undefined;
  }

  /**
   * A hold is good only on the session that made its node. After an expiry the client goes on with a new session,
   * but the node went with the old one: the hold is lost (its lease's signal says so) and never counts again, not
   * for re-entry, not for isHeldBy; its owner releases it, which finds the node gone.
   */
  #onCurrentSession(hold: Hold): boolean {
    return hold.node.session === this.#ops.client.sessionId;
  }

  isAcquiredInThisProcess(): boolean {
    for (const hold of this.#holds.values()) if (hold.releasing !== undefined || this.#onCurrentSession(hold)) return true;
    return false;
  }

  /** True while `owner` (or the owner of a Lease) holds the lock. */
  isHeldBy(owner: object): boolean {
    return this.heldNodeOf(owner instanceof Lease ? owner.owner : owner) !== undefined;
  }

  /**
   * The entry point: `timeoutMs` and the caller's signal become one signal here, and every step below carries only
   * that (see Deadline); a step the timeout stopped makes the acquire resolve NOT_ACQUIRED.
   */
  async acquire(options: AcquireOptions = {}): Promise<Lease | NotAcquired> {
    const deadline = new Deadline(options, 'acquire', this.#internals.basePath, this.#ops.clock);
    try {
      const owner = ownerOf(options, 'acquire');
      return await this.#acquire(owner, deadline);
    } catch (err) {
      deadline.settle(err);
      return NOT_ACQUIRED;
    } finally {
      deadline[Symbol.dispose]();
    }
  }

  async #acquire(owner: object, deadline: Deadline): Promise<Lease | NotAcquired> {
    const { signal, tryOnce } = deadline;
    for (;;) {
      if (signal?.aborted === true) throw aborted(signal, 'acquire', this.#internals.basePath);
      const hold = this.#holds.get(owner);
      if (hold !== undefined && hold.releasing === undefined) {
        if (!this.#onCurrentSession(hold)) {
          throw recipeError('SESSIONEXPIRED', 'acquire', this.#internals.basePath, "this owner's lock was lost with the session that held it: release its lease, then acquire again");
        }
        hold.count++;
        return this.#leaseFor(hold, owner);
      }
      // Wait for this owner's attempt in flight, or for its old node to be deleted, then look again.
      const busy = hold?.releasing ?? this.#entering.get(owner);
      if (busy === undefined) break;
      if (tryOnce) return NOT_ACQUIRED;
      const outcome = await waitForEvent(busy.catch(() => undefined), this.#ops.clock, undefined, signal);
      if (outcome === 'aborted') throw aborted(signal, 'acquire', this.#internals.basePath);
    }
    const attempt = this.#internals.attempt({ signal, tryOnce, data: this.#data, decide: this.#decideFor(owner) });
    this.#entering.set(owner, attempt);
    let node: HeldNode | undefined;
    try {
      node = await attempt;
    } finally {
      this.#entering.delete(owner);
    }
    if (node === undefined) return NOT_ACQUIRED;
    const hold = this.#startHold(node);
    this.#holds.set(owner, hold);
    return this.#leaseFor(hold, owner);
  }

  #startHold(node: HeldNode): Hold {
    const lost = new LockLostSignal(this.#ops.client, this.#lockLost, node.path, node.session);
    const listener = this.#revocationListener;
    const stopRevocation =
      listener === undefined ? () => undefined : watchRevocation(this.#ops, node.path, listener, lost);
    return { node, count: 1, lost, stopRevocation, releasing: undefined };
  }

  #leaseFor(hold: Hold, owner: object): Lease {
    const backend: LeaseBackend = {
      client: this.#ops.client,
      node: hold.node.path,
      fencingToken: hold.node.fencingToken,
      // a getter: the signal is made only if someone asks for it (see lock-lost.ts)
      get signal() {
        return hold.lost.signal;
      },
      releaseOne: () => this.#releaseOne(owner, hold),
    };
    return new Lease(backend, owner);
  }

  async #releaseOne(owner: object, hold: Hold): Promise<void> {
    hold.count--;
    if (hold.count > 0) return;
    hold.stopRevocation();
    hold.lost.dispose();
    // The hold stays in the table until the node is gone (a release that drops local state first is how a
    // process ends up waiting behind its own orphan), then goes whatever the outcome.
    hold.releasing = this.#internals.guaranteedDelete(hold.node.path);
    try {
      await hold.releasing;
    } finally {
      if (this.#holds.get(owner) === hold) this.#holds.delete(owner);
    }
  }

  /** Full paths of every node in this lock's directory that `filter` accepts, in lock order. */
  participantNodes(filter?: (name: string) => boolean): Promise<string[]> {
    return this.#internals.participantNodes(filter);
  }
}
