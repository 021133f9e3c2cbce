/**
 * InterProcessReadWriteLock: readers share, a writer excludes everyone; fair in request order. Nodes are
 * `<path>/_c_<uuid>-__READ__<seq>` and `<path>/_c_<uuid>-__WRIT__<seq>` in one directory, so Curator clients on
 * the same path take part in the same queue.
 *
 * Both halves are re-entrant by owner, like the mutex. An owner holding the write lock may also take the read
 * lock (that is how to downgrade: take read, release write). The reverse, taking the write lock while holding
 * only the read lock, can never succeed (our own reader would block us for ever), so it is refused at once with
 * BAD_ARGUMENT instead of hanging as it does in Curator.
 */

import type { ZooKeeperClient } from '../../client.js';
import { badArgument } from '../common/errors.js';
import { LockInternals } from './internals.js';
import type { Lease, NotAcquired } from './lease.js';
import { READ_LOCK_NAME, WRITE_LOCK_NAME } from './naming.js';
import { resolveLockOptions, type LockOptions } from './options.js';
import { mutexVerdict, readerVerdict } from './predicate.js';
import { ReentrantLock, ownerOf, type AcquireOptions, type InterProcessLock } from './reentrant-lock.js';
import type { RevocationListener } from './revocation.js';

const SORT_NAMES = [READ_LOCK_NAME, WRITE_LOCK_NAME] as const;

/** One half of a read/write lock. */
export class ReadWriteHalf implements InterProcessLock {
  readonly #lock: ReentrantLock;
  readonly #lockName: string;
  readonly #refuse: (owner: object) => string | undefined;

  constructor(
    lock: ReentrantLock,
    lockName: string,
    refuse: (owner: object) => string | undefined,
  ) {
    this.#lock = lock;
    this.#lockName = lockName;
    this.#refuse = refuse;
  }

  /** Waits until this half of the lock is held; resolves with the lease. */
  acquire(options?: AcquireOptions & { timeoutMs?: undefined }): Promise<Lease>;
  /** Waits at most `options.timeoutMs`; resolves with NOT_ACQUIRED if the time runs out. */
  acquire(options: AcquireOptions): Promise<Lease | NotAcquired>;
  async acquire(options: AcquireOptions = {}): Promise<Lease | NotAcquired> {
    const owner = ownerOf(options, 'acquire');
    const refusal = this.#refuse(owner);
    if (refusal !== undefined) {
      throw badArgument('acquire', undefined, refusal);
    }
    return this.#lock.acquire({ ...options, owner });
  }

  /** Releases a lease of this half (the same as `lease.release()`). */
  release(lease: Lease): Promise<void> {
    return lease.release();
  }

  isAcquiredInThisProcess(): boolean {
    return this.#lock.isAcquiredInThisProcess();
  }

  /** Whether `owner` holds this half of the lock. */
  isHeldBy(owner: object): boolean {
    return this.#lock.isHeldBy(owner);
  }

  /** This half's nodes (readers or writers), full paths in lock order. */
  getParticipantNodes(): Promise<string[]> {
    return this.#lock.participantNodes((name) => name.includes(this.#lockName));
  }

  /** Asks to be told when another process requests this half's release (Curator's revocation). */
  makeRevocable(listener: RevocationListener): void {
    this.#lock.makeRevocable(listener);
  }
}

/** Curator's InterProcessReadWriteLock: many readers or one writer; the writer may also take the read lock. */
export class InterProcessReadWriteLock {
  readonly readLock: ReadWriteHalf;
  readonly writeLock: ReadWriteHalf;

  constructor(
    client: ZooKeeperClient,
    readonly path: string,
    options: LockOptions = {},
  ) {
    const { ops, lockLost, retry, data } = resolveLockOptions(client, path, options, 'InterProcessReadWriteLock');
    const writeInternals = new LockInternals(ops, path, { lockName: WRITE_LOCK_NAME, sortNames: SORT_NAMES }, retry);
    const readInternals = new LockInternals(ops, path, { lockName: READ_LOCK_NAME, sortNames: SORT_NAMES }, retry);
    const writer = new ReentrantLock(ops, writeInternals, () => (children, ours, limit) => mutexVerdict(children, ours, SORT_NAMES, limit), lockLost, data);
    const reader = new ReentrantLock(
      ops,
      readInternals,
      // Asked afresh on every look: the owner's write lock counts only while it is held.
      (owner) => (children, ours, limit) => readerVerdict(children, ours, SORT_NAMES, WRITE_LOCK_NAME, writer.heldNodeOf(owner)?.name, limit),
      lockLost,
      data,
    );
    this.writeLock = new ReadWriteHalf(writer, WRITE_LOCK_NAME, (owner) =>
      reader.isHeldBy(owner) && !writer.isHeldBy(owner)
        ? 'this owner holds the read lock; a read lock cannot be upgraded to the write lock'
        : undefined,
    );
    this.readLock = new ReadWriteHalf(reader, READ_LOCK_NAME, () => undefined);
  }
}
