/**
 * The attempt loop every lock shares (Curator's LockInternals): create our ephemeral sequential node, list the
 * lock directory, ask the predicate, and either hold or watch the one node we queue behind, until we hold, time
 * out, are aborted, or fail. Locks differ only in the name they create and the predicate they pass in.
 *
 * Where we go beyond Curator:
 *  - the create and the first listing are sent back to back, so an uncontended acquire is one round trip;
 *  - the caller's AbortSignal cancels a wait at once, and every exit path (timeout, abort, error) deletes our
 *    node and takes back the watch it left, so a given-up attempt leaves nothing on the server;
 *  - releases are guaranteed deletes (node-ops.ts), and the caller hears back only once the node is gone.
 */

import { ZooKeeperError } from '../../errors.js';
import { abortError, sleep, waitForEvent, type RetryPolicy } from '../retry.js';
import { joinPath, nodeName } from './naming.js';
import { NodeOps } from './node-ops.js';
import { isCode } from '../../errors.js';
import type { LockPort, PortWatch } from './port.js';
import { sortLockChildren, type PredicateResult } from './predicate.js';

/** How a lock names its nodes and orders its directory. */
export interface LockDriver {
  /** The name after the protection prefix: `lock-`, `__READ__`, `__WRIT__`. */
  readonly lockName: string;
  /** Names stripped to find each child's sequence when sorting (see predicate.ts). */
  readonly sortNames: readonly string[];
}

/**
 * Decides for one attempt from the directory's children as listed (unsorted); may consult the caller's other
 * holds (a reader's own write lock). Names the blockers only when there are at most `maxBlockers`.
 */
export type Decide = (children: readonly string[], ourName: string, maxBlockers: number) => PredicateResult;

export interface AttemptOptions {
  /** Clock time after which to give up (undefined: wait for ever). */
  readonly deadline?: number | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly data?: Uint8Array | undefined;
  readonly decide: Decide;
  /**
   * False when the caller learns by itself whether our node survived the wait: the semaphore deletes its gate node
   * right behind the create it makes under the gate, and the delete's answer says whether the node was still
   * there. Saves the read that arms the watch on our own node and the notification it sends when we delete it.
   */
  readonly watchOwnNode?: boolean;
}

/** The node an attempt holds. */
export interface HeldNode {
  readonly path: string;
  readonly name: string;
  readonly fencingToken: bigint;
}

const EMPTY = new Uint8Array(0);

/** Thrown inside an attempt when our own node has vanished; the attempt then starts over under the retry policy. */
class OurNodeGone extends Error {}

/**
 * Up to this many blockers are watched at once (see waitUntilHeld). Deeper in the queue a waiter watches only the
 * node just ahead, so one deletion never wakes more than this many waiters besides that node's successor.
 */
const MAX_WATCHED_BLOCKERS = 8;

/** A one-shot watch whose event is recorded (by the first reaction to it) once it fires. */
interface BlockerWatch {
  readonly watch: PortWatch;
  event: { readonly type: string; readonly state: string } | undefined;
}

/** A watch on our own node while we wait. */
type OwnWatch = BlockerWatch;

/** Up to `count` of the blockers nearest to us (the end of `ahead`, which is in lock order) not watched yet. */
function nearestUnwatched(ahead: readonly string[], watching: ReadonlyMap<string, unknown>, count: number): string[] {
  const picked: string[] = [];
  for (let i = ahead.length - 1; i >= 0 && picked.length < count; i--) {
    const name = ahead[i] as string;
    if (!watching.has(name)) picked.push(name);
  }
  return picked;
}

function observed(watch: PortWatch): BlockerWatch {
  const w: BlockerWatch = { watch, event: undefined };
  // The first reaction to the notification: it runs before anything that waits on a later notification.
  void watch.fired.then((event) => {
    w.event = event;
  });
  return w;
}

export class LockInternals {
  readonly #ops: NodeOps;
  readonly #port: LockPort;
  readonly #driver: LockDriver;
  readonly #retry: RetryPolicy;

  constructor(
    port: LockPort,
    /** The lock directory. */
    readonly basePath: string,
    driver: LockDriver,
    retry: RetryPolicy,
  ) {
    this.#port = port;
    this.#driver = driver;
    this.#retry = retry;
    this.#ops = new NodeOps(port, retry);
  }

  /** Holds the lock and returns our node, or returns undefined once the deadline passes. */
  async attempt(opts: AttemptOptions): Promise<HeldNode | undefined> {
    const clock = this.#port.clock;
    const started = clock.now();
    for (let retryCount = 0; ; retryCount++) {
      if (opts.signal?.aborted) throw abortError(opts.signal, 'acquire');
      try {
        return await this.#attemptOnce(opts);
      } catch (err) {
        if (!(err instanceof OurNodeGone)) throw err;
        // Our node went away under us: the session that owned it ended, or someone deleted it. Curator retries
        // the whole attempt under its retry policy; so do we.
        const delay = this.#retry.nextDelay(retryCount, clock.now() - started);
        if (delay === undefined) {
          throw new ZooKeeperError('NONODE', `NONODE (acquire ${this.basePath}): our lock node vanished while waiting`, {
            op: 'acquire',
            path: this.basePath,
          });
        }
        await sleep(delay, clock, opts.signal);
      }
    }
  }

  async #attemptOnce(opts: AttemptOptions): Promise<HeldNode | undefined> {
    const first = await this.#ops.createProtected(this.basePath, this.#driver.lockName, opts.data ?? EMPTY, opts.signal);
    const node: HeldNode = { path: first.path, name: nodeName(first.path), fencingToken: first.stamp.czxid };
    let held = false;
    try {
      held = await this.#waitUntilHeld(node, first.children, opts);
      return held ? node : undefined;
    } finally {
      // Every way out that does not hold the lock gives our place back: timeout, abort, error.
      if (!held) await this.#ops.deleteOnExit(node.path);
    }
  }

  /**
   * The loop: list, decide, watch, wait. True once held, false on timeout.
   *
   * One round trip per hand-off, and one listing per acquire. Curator's loop watches the node just ahead and,
   * whenever it changes, lists the directory again to decide: release → NodeDeleted → getChildren → held. We
   * remember every node that blocks us from the listing made with our create (the predicate names them: all nodes
   * ahead of a mutex or write-lock waiter, the writers ahead of a reader), and cross them off as they are deleted.
   * We watch the MAX_WATCHED_BLOCKERS nearest ones (all of them, near the head of the queue) and, as each goes,
   * the next nearest not yet seen gone, without listing; we hold on the last NodeDeleted. So a deletion wakes at
   * most that many waiters, and a hand-off deep in a long queue costs no listing of it:
   *  - every node that sorts ahead of ours was created before ours, so it was in the listing made right after our
   *    create (this session's requests are answered in order), unless it was already gone; nodes created later
   *    sort after ours; a deleted node never comes back. So the blockers only ever shrink, and once every one of
   *    them is deleted (NodeDeleted, or NONODE when we read it), nothing blocks us.
   *  - what a listing would also tell us is whether our own node still exists (an operator deleted it, or the
   *    session ended). That we learn from a watch on our own node, set in the same write as the first watches on
   *    the blockers: on one connection the server delivers notifications in zxid order, so if our node went
   *    before the last blocker, its NodeDeleted is handled first and the attempt starts over. A session end
   *    arrives as a None event, not NodeDeleted, and falls back to listing. (Unless the caller checks it itself
   *    with its next write: see AttemptOptions.watchOwnNode.)
   *  - across a reconnect the order of the events the server replays for re-armed watches is not the order of the
   *    deletes, so a wait that saw the link break lists again, and from then on waits like Curator.
   */
  async #waitUntilHeld(node: HeldNode, firstChildren: string[] | undefined, opts: AttemptOptions): Promise<boolean> {
    const clock = this.#port.clock;
    const { signal } = opts;
    let children = firstChildren;
    let own: OwnWatch | undefined;
    const watchOwn = opts.watchOwnNode !== false;
    let linkBroke = false;
    let unsubscribe: (() => void) | undefined;
    /** Blockers not yet seen deleted, in lock order; undefined: decide from a listing. */
    let ahead: string[] | undefined;
    let predecessor = '';
    const watching = new Map<string, BlockerWatch>();
    const dropAll = async (): Promise<void> => {
      const left = [...watching.values()];
      watching.clear();
      await Promise.all(left.map((w) => (w.event === undefined ? w.watch.remove() : undefined)));
    };
    const crossOff = (name: string): void => {
      const i = ahead?.lastIndexOf(name) ?? -1;
      if (i >= 0) ahead?.splice(i, 1);
    };
    try {
      for (;;) {
        if (signal?.aborted) throw abortError(signal, 'acquire');
        // More unwatched blockers than we would read at once: most of them are usually gone (in a queue the ones
        // nearer the head go first), and one listing tells us which for the price of a single request, where
        // reading them one by one would cost a request each.
        const refresh = ahead !== undefined && !linkBroke && watching.size < Math.min(MAX_WATCHED_BLOCKERS, ahead.length) && ahead.length - watching.size > MAX_WATCHED_BLOCKERS;
        if (ahead === undefined || linkBroke || refresh) {
          if (!refresh) await dropAll();
          children ??= await this.#listOrGone(signal);
          const verdict = opts.decide(children, node.name, Number.POSITIVE_INFINITY);
          children = undefined;
          if (verdict.acquired || 'missing' in verdict) await dropAll();
          if (verdict.acquired) return true;
          if ('missing' in verdict) throw new OurNodeGone();
          ahead = linkBroke || verdict.blockers === undefined ? undefined : [...verdict.blockers];
          predecessor = verdict.watchPath;
          // Watched nodes no longer listed are gone (their NodeDeleted came before this listing's reply).
          for (const name of [...watching.keys()]) if (ahead === undefined || !ahead.includes(name)) watching.delete(name);
          if (ahead === undefined) await dropAll();
        }
        if (opts.deadline !== undefined && clock.now() >= opts.deadline) return false;
        const remembering = ahead !== undefined;
        if (remembering && unsubscribe === undefined) {
          unsubscribe = this.#port.onConnectionEvent((event) => {
            if (event !== 'RECONNECTED') linkBroke = true;
          });
        }
        // The nearest blockers not watched yet, up to MAX_WATCHED_BLOCKERS watched in all (or, when not remembering
        // the blockers, the one node to watch before listing again).
        const targets = ahead === undefined ? [predecessor] : nearestUnwatched(ahead, watching, MAX_WATCHED_BLOCKERS - watching.size);
        // Every read queues in this tick, so they all leave in one write: one round trip however many.
        // (settled at once into a value: it may fail while we still wait for the other reads)
        const arming =
          remembering && watchOwn && own === undefined
            ? this.#watchBlocker(node.path, signal, true).then((w) => ({ w }), (err: unknown) => ({ err }))
            : undefined;
        const reads = targets.map((name) => this.#watchBlocker(name, signal));
        const settled = await Promise.allSettled(reads);
        const ownRead = await arming;
        for (const [i, r] of settled.entries()) {
          const name = targets[i] as string;
          if (r.status !== 'fulfilled') continue;
          if (r.value === undefined) crossOff(name); // already gone
          else watching.set(name, r.value);
        }
        const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failed !== undefined || (ownRead !== undefined && 'err' in ownRead)) {
          await dropAll();
          throw failed !== undefined ? failed.reason : (ownRead as { err: unknown }).err;
        }
        if (ownRead !== undefined) {
          own = ownRead.w;
          if (own === undefined) {
            await dropAll();
            throw new OurNodeGone(); // our node is already gone
          }
        }
        // Wait until the blockers are all deleted, or the watched ones need topping up, or something else happens.
        for (;;) {
          if (ahead !== undefined && ahead.length === 0) {
            if (!linkBroke && (watchOwn ? own !== undefined && own.event === undefined : true)) return true;
            ahead = undefined; // list again
            await dropAll();
            break;
          }
          // Some went: watch the next nearest (deleted ones are crossed off as their reads come back NONODE).
          if (ahead !== undefined && watching.size < Math.min(MAX_WATCHED_BLOCKERS, ahead.length)) break;
          if (watching.size === 0) break; // not remembering: the one we watched went; list again
          const wakes = [...watching.values()].map((w) => w.watch.fired);
          if (own !== undefined) wakes.push(own.watch.fired);
          const outcome = await waitForEvent(Promise.race(wakes), clock, opts.deadline, signal);
          if (outcome !== 'fired') {
            // Leaving without the events: take the watches back so none is left on the server. (The watch on our
            // own node goes with our node, which every way out deletes.)
            await dropAll();
            if (outcome === 'timeout') return false;
            throw abortError(signal as AbortSignal, 'acquire');
          }
          const ownEvent = own?.event;
          if (ownEvent !== undefined) {
            // Something happened to our own node: it was deleted (start over), or written (look again, re-arm).
            own = undefined;
            ahead = undefined;
            await dropAll();
            if (ownEvent.type === 'NodeDeleted') throw new OurNodeGone();
            break;
          }
          let relist = ahead === undefined;
          for (const [name, w] of watching) {
            if (w.event === undefined) continue;
            watching.delete(name);
            // deleted: cross it off; written: still there, watched again when topping up; anything else (a session
            // event) or a broken link: list again
            if (w.event.type === 'NodeDeleted' && w.event.state === 'SyncConnected' && !linkBroke) crossOff(name);
            else if (w.event.type !== 'NodeDataChanged' || linkBroke) relist = true;
          }
          if (relist) {
            ahead = undefined;
            await dropAll();
            break;
          }
        }
      }
    } finally {
      unsubscribe?.();
    }
  }

  /**
   * A data watch on a blocker (a name in the lock directory), or on our own node (`isPath`); undefined when it is
   * already gone (getData, not exists, leaves no watch then). Retried across broken connections, like every read.
   */
  async #watchBlocker(name: string, signal: AbortSignal | undefined, isPath = false): Promise<BlockerWatch | undefined> {
    const path = isPath ? name : joinPath(this.basePath, name);
    let read: Awaited<ReturnType<LockPort['getDataWatch']>>;
    try {
      read = await this.#ops.retrying(() => this.#port.getDataWatch(path, signal), signal);
    } catch (err) {
      if (isCode(err, 'NONODE')) return undefined;
      throw err;
    }
    return observed(read.watch);
  }

  async #listOrGone(signal: AbortSignal | undefined): Promise<string[]> {
    try {
      return await this.#ops.retrying(() => this.#port.getChildren(this.basePath, signal), signal);
    } catch (err) {
      // the directory itself is gone, so our node is too
      if (isCode(err, 'NONODE')) throw new OurNodeGone();
      throw err;
    }
  }

  /** Deletes a held node (release), retrying through reconnects; see NodeOps.guaranteedDelete. */
  guaranteedDelete(path: string): Promise<void> {
    return this.#ops.guaranteedDelete(path);
  }

  /** The lock's participants, full paths in lock order (empty when the directory does not exist). */
  async participantNodes(filter?: (name: string) => boolean): Promise<string[]> {
    let children: string[];
    try {
      children = await this.#port.getChildren(this.basePath);
    } catch (err) {
      if (isCode(err, 'NONODE')) return [];
      throw err;
    }
    return sortLockChildren(children, this.#driver.sortNames)
      .filter((name) => filter === undefined || filter(name))
      .map((name) => joinPath(this.basePath, name));
  }
}
