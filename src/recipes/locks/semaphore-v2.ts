/**
 * InterProcessSemaphoreV2: at most `maxLeases` leases held at once across all clients of a path, in Curator's
 * layout so Curator clients share the count:
 *
 *   <path>/locks/_c_<uuid>-lock-<seq>     a mutex (the gate) that lets one acquirer at a time create its lease
 *   <path>/leases/_c_<uuid>-lease-<seq>   one ephemeral node per lease, held or waited for
 *
 * Curator's acquirer takes the gate, creates its lease node, and waits *still holding the gate* until the leases
 * directory has at most maxLeases children, so one acquisition at a time makes progress. Ours creates its lease
 * node without the gate when nobody holds or waits for it, and otherwise holds the gate only around the create;
 * either way it then waits by position: it holds once fewer than maxLeases lease nodes sort ahead of its own.
 *
 * Safety (never more than maxLeases holders), with both kinds of client on one path:
 *  - lease nodes sort by sequence, and a node created later sorts after every node present; so a node that is
 *    among the first maxLeases present stays among them until it is deleted.
 *  - a node admitted by our rule (fewer than maxLeases ahead) is among the first maxLeases; one admitted by
 *    Curator's (at most maxLeases nodes in all) is too. So every holder is among the first maxLeases nodes
 *    present, and there are never more than maxLeases holders. None of this depends on the gate.
 *
 * Liveness (every acquirer is eventually served, holders permitting) is what the gate is for. The hazard: a
 * Curator client waiting with the gate counts every lease node, so a node created behind its own while it waits
 * keeps it waiting, while that node (ours) waits for the Curator node ahead of it, for ever. So a node of ours may
 * stay only if no Curator client was waiting with the gate when it was created:
 *  - without the gate: the create leaves with a listing of the leases and a listing of the gate's directory, in one
 *    write. The server answers one session's requests in order, so the gate listing sees every change up to our
 *    create. A Curator client waiting with the gate at our create either still holds it at that listing (so the
 *    listing is not empty) or was admitted in between (so it no longer waits). An empty listing therefore proves
 *    nobody was left waiting behind our node, and we keep it; otherwise we delete it at once (a waiting Curator
 *    client sees it come and go, and counts again) and go through the gate.
 *  - through the gate: our create happens while we hold it, as Curator's does, so no Curator client is waiting
 *    then. The gate's release is sent right behind the create and succeeds only if our gate node was still there
 *    when the create was applied before it (the nodes ahead of it being gone for good): if it finds no node (an
 *    operator deleted it, or it went with a session) or its answer is lost, we delete the lease node and start
 *    over. So the gate's waiter needs no watch on its own node.
 *  - our waiters hold nothing while they wait, so they never block another acquirer's create; a Curator waiter
 *    holding the gate only ever waits for nodes ahead of it, each a holder (which releases) or a waiter of ours,
 *    admitted as the nodes ahead of it drain.
 *
 * As in Curator, all clients must agree on maxLeases; nothing checks it.
 */

import type { ZooKeeperClient } from '../../client.js';
import { isCode } from '../../errors.js';
import { Deadline } from '../common/deadline.js';
import { aborted, badArgument, nodeVanished } from '../common/errors.js';
import { isSessionRenewed } from '../common/connection.js';
import type { CreatedNode, NodeOps } from '../common/nodes.js';
import type { OneShotWatch } from '../common/watches.js';
import type { RetryPolicy } from '../../session/retry-policy.js';
import { sleep, waitForEvent } from '../retry.js';
import { LockInternals, type Decide } from './internals.js';
import { Lease, NOT_ACQUIRED, type NotAcquired } from './lease.js';
import { LockLostSignal, type LockLostPolicy } from './lock-lost.js';
import { joinPath, LEASE_NAME, LOCK_NAME, newProtectedId, nodeName, SEMAPHORE_LEASES, SEMAPHORE_LOCKS } from './naming.js';
import { resolveLockOptions, type LockOptions } from './options.js';
import { getsTheLock, mutexVerdict, sortLockChildren } from './predicate.js';
import type { AcquireOptions } from './reentrant-lock.js';

/** Options of a semaphore acquire: like AcquireOptions, without an owner (semaphore leases are not re-entrant). */
export type SemaphoreAcquireOptions = Omit<AcquireOptions, 'owner'>;

const EMPTY = new Uint8Array(0);
const LEASE_SORT = [LEASE_NAME] as const;

/** The gate is a mutex of Curator's layout: `lock-` nodes under `<path>/locks/`. */
const gateVerdict: Decide = (children, ours, limit) => mutexVerdict(children, ours, [LOCK_NAME], limit);

/** Our lease node vanished while we waited (session lost): start that lease over. */
class LeaseGone extends Error {}

/** Curator's InterProcessSemaphoreV2: at most `maxLeases` leases at a time across every process. */
export class InterProcessSemaphoreV2 {
  readonly #ops: NodeOps;
  readonly #gate: LockInternals;
  readonly #leasesPath: string;
  readonly #retry: RetryPolicy;
  readonly #lockLost: LockLostPolicy;
  readonly #data: Uint8Array | undefined;
  /** The sessions of the leases handed out and not yet released, one entry per lease. */
  readonly #outstanding = new Set<{ readonly session: bigint }>();

  constructor(
    client: ZooKeeperClient,
    readonly path: string,
    readonly maxLeases: number,
    options: LockOptions = {},
  ) {
    const resolved = resolveLockOptions(client, path, options, 'InterProcessSemaphoreV2');
    if (!Number.isInteger(maxLeases) || maxLeases < 1) throw badArgument('InterProcessSemaphoreV2', path, 'maxLeases must be a positive integer');
    this.#ops = resolved.ops;
    this.#retry = resolved.retry;
    this.#lockLost = resolved.lockLost;
    this.#data = resolved.data;
    this.#leasesPath = joinPath(path, SEMAPHORE_LEASES);
    const locksPath = joinPath(path, SEMAPHORE_LOCKS);
    this.#gate = new LockInternals(this.#ops, locksPath, { lockName: LOCK_NAME, sortNames: [LOCK_NAME] }, this.#retry);
  }

  /**
   * Acquires `qty` leases, all or none: resolves to the leases, or (only with `timeoutMs`) to `{acquired: false}`
   * once the time is up, having returned any taken so far. Rejects with ABORTED when `signal` fires, likewise.
   */
  acquire(qty: number, options?: SemaphoreAcquireOptions & { timeoutMs?: undefined }): Promise<Lease[]>;
  acquire(qty: number, options: SemaphoreAcquireOptions): Promise<Lease[] | NotAcquired>;
  async acquire(qty: number, options: SemaphoreAcquireOptions = {}): Promise<Lease[] | NotAcquired> {
    if (!Number.isInteger(qty) || qty < 1) throw badArgument('acquire', this.path, 'qty must be a positive integer');
    // The entry point: timeoutMs and the caller's signal become the one signal every step below carries.
    const deadline = new Deadline(options, 'acquire', this.path, this.#ops.clock);
    const taken: Lease[] = [];
    let complete = false;
    try {
      for (let i = 0; i < qty; i++) {
        const lease = await this.#acquireLease(deadline);
        if (lease === undefined) return NOT_ACQUIRED;
        taken.push(lease);
      }
      complete = true;
      return taken;
    } catch (err) {
      deadline.settle(err);
      return NOT_ACQUIRED;
    } finally {
      deadline[Symbol.dispose]();
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

  /** Leases this object has handed out and not yet released, on the client's current session. */
  get leasesHeldInThisProcess(): number {
    // a lease whose session expired (the client being on a new one) is lost, and no longer counts as held
    let held = 0;
    for (const lease of this.#outstanding) if (lease.session === this.#ops.client.sessionId) held++;
    return held;
  }

  /** The lease nodes (holders, and the one acquirer waiting), full paths. */
  async getParticipantNodes(): Promise<string[]> {
    try {
      return (await this.#ops.client.getChildren(this.#leasesPath)).map((name) => joinPath(this.#leasesPath, name));
    } catch (err) {
      if (isCode(err, 'NONODE')) return [];
      throw err;
    }
  }

  /**
   * One lease: take the gate, create our lease node and release the gate in the same write, then wait until
   * fewer than maxLeases lease nodes sort ahead of ours (see the file comment for why this is safe next to
   * Curator clients).
   */
  async #acquireLease(deadline: Deadline): Promise<Lease | undefined> {
    const { signal } = deadline;
    const clock = this.#ops.clock;
    const started = clock.now();
    for (let retryCount = 0; ; retryCount++) {
      const node = (await this.#createWithoutGate(signal)) ?? (await this.#createUnderGate(deadline));
      if (node === undefined) return undefined;
      try {
        return await this.#waitForPlace(node, deadline);
      } catch (err) {
        // our lease node went (with its session, the client being on a new one): start that lease over
        if (!(err instanceof LeaseGone) && !isSessionRenewed(this.#ops.client, err)) throw err;
        const delay = this.#retry.nextDelay(retryCount, clock.now() - started);
        if (delay === undefined) throw nodeVanished('acquire', this.path, 'our lease node vanished while waiting');
        await sleep(delay, clock, signal);
      }
    }
  }

  /**
   * Our lease node, created without the gate and kept only when the gate's directory, listed right behind the
   * create, is empty (see the file comment); undefined when it was not kept, so the caller goes through the gate.
   */
  async #createWithoutGate(signal: AbortSignal | undefined): Promise<CreatedNode | undefined> {
    // A second try when the first made no node: the leases directory did not exist yet (it does now), or the
    // create's answer was lost and it had not been applied.
    for (let tries = 0; tries < 2; tries++) {
      const made = await this.#createChecked(signal, () => this.#gateIdle(signal));
      if (made !== 'none') return made === 'taken back' ? undefined : made;
    }
    return undefined;
  }

  /** True when the gate's directory is empty or missing; false when not, or when it cannot be told. */
  async #gateIdle(signal: AbortSignal | undefined): Promise<boolean> {
    try {
      return (await this.#ops.client.getChildren(this.#gate.basePath, signal === undefined ? {} : { signal })).length === 0;
    } catch (err) {
      return isCode(err, 'NONODE');
    }
  }

  /**
   * Our lease node, created while we hold the gate; undefined for a `tryOnce` acquire that would wait. The gate's release
   * is queued right behind the create (and the listing of the leases), so all three leave in one write: the
   * server applies the create first, so it still happens under the gate, and the gate costs no extra round trip.
   * The release's answer tells whether we still held the gate (see the file comment).
   */
  async #createUnderGate(deadline: Deadline): Promise<CreatedNode | undefined> {
    const { signal, tryOnce } = deadline;
    for (;;) {
      const gate = await this.#gate.attempt({ signal, tryOnce, decide: gateVerdict, watchOwnNode: false });
      if (gate === undefined) return undefined;
      const made = await this.#createChecked(signal, () => this.#releaseGate(gate.path));
      if (typeof made === 'object') return made;
      if (signal?.aborted === true) throw aborted(signal, 'acquire', this.path);
    }
  }

  /**
   * Creates our lease node (with a listing of the leases) and sends `check` right behind it, in the same write.
   * The node is kept when the check says so; otherwise it may have been made where a Curator client waiting with
   * the gate counts it, so it is deleted before this returns. 'none' when no node was made. Every way out waits
   * for the check, so nothing it started (the gate's release) outlives the call.
   */
  async #createChecked(signal: AbortSignal | undefined, check: () => Promise<boolean>): Promise<CreatedNode | 'none' | 'taken back'> {
    let checked: Promise<boolean> | undefined;
    const sendCheck = (): Promise<boolean> => (checked ??= check());
    const created = await this.#createLeaseOnce(signal, sendCheck).then(
      (node) => ({ node }),
      (err: unknown) => ({ err }),
    );
    const keep = await sendCheck();
    if ('err' in created) throw created.err;
    const { node } = created;
    if (node === undefined) return 'none';
    if (keep) return node;
    await this.#ops.guaranteedDelete(node.path);
    return 'taken back';
  }

  /**
   * One try of the protected create of our lease node, with a listing of the leases behind it; `alongside` runs
   * right after both are queued (see NodeOps.tryCreateProtected). Undefined when the create must be tried again
   * from the start: the directory was missing (it is made now) or the reply was lost and the create did not happen.
   */
  async #createLeaseOnce(signal: AbortSignal | undefined, alongside: () => void): Promise<CreatedNode | undefined> {
    const made = await this.#ops.tryCreateProtected(this.#leasesPath, LEASE_NAME, newProtectedId(), this.#data ?? EMPTY, signal, { list: true, alongside });
    if (!('failed' in made)) return made;
    if (isCode(made.failed, 'NONODE')) await this.#ops.makeDirectory(this.#leasesPath, signal);
    return undefined;
  }

  /** Deletes our gate node: true when it was still there, false when it was already gone or the answer was lost. */
  async #releaseGate(path: string): Promise<boolean> {
    try {
      await this.#ops.client.delete(path);
      return true;
    } catch (err) {
      // Lost answer or ended session: make sure it goes (guaranteedDelete gives up once the session is over).
      if (!isCode(err, 'NONODE')) void this.#ops.guaranteedDelete(path).catch(() => undefined);
      return false;
    }
  }

  /** Waits until fewer than maxLeases lease nodes sort ahead of ours; undefined (node deleted) on timeout. */
  async #waitForPlace(node: CreatedNode, deadline: Deadline): Promise<Lease | undefined> {
    const { signal, tryOnce } = deadline;
    const name = nodeName(node.path);
    let children = node.children;
    let kept = false;
    try {
      for (;;) {
        if (signal?.aborted === true) throw aborted(signal, 'acquire', this.path);
        let watch: OneShotWatch | undefined;
        if (children === undefined) {
          ({ children, watch } = await this.#ops.retrying(() => this.#ops.watchChildren(this.#leasesPath, signal), signal));
        }
        const verdict = getsTheLock(sortLockChildren(children, LEASE_SORT), name, this.maxLeases);
        children = undefined;
        if ('missing' in verdict) {
          await watch?.remove();
          throw new LeaseGone();
        }
        if (verdict.acquired) {
          kept = true;
          await watch?.remove();
          return this.#leaseFor(node);
        }
        // Not yet. A single try gives up here; otherwise, the listing that came with the create set no watch: list
        // again with one.
        if (tryOnce) {
          await watch?.remove();
          return undefined;
        }
        if (watch === undefined) continue;
        const outcome = await waitForEvent(watch.fired, this.#ops.clock, undefined, signal);
        if (outcome === 'fired') continue;
        await watch.remove();
        throw aborted(signal, 'acquire', this.path);
      }
    } finally {
      if (!kept) await this.#ops.deleteOnExit(node.path);
    }
  }

  #leaseFor(node: CreatedNode): Lease {
    const lost = new LockLostSignal(this.#ops.client, this.#lockLost, node.path, node.stat.ephemeralOwner);
    const outstanding = { session: node.stat.ephemeralOwner };
    this.#outstanding.add(outstanding);
    return new Lease(
      {
        client: this.#ops.client,
        node: node.path,
        fencingToken: node.stat.czxid,
        get signal() {
          return lost.signal;
        },
        releaseOne: async () => {
          lost.dispose();
          try {
            await this.#ops.guaranteedDelete(node.path);
          } finally {
            this.#outstanding.delete(outstanding);
          }
        },
      },
      {},
    );
  }
}
