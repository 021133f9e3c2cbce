/**
 * The wait of one lock attempt, after its node is made: list, decide, watch, wait. Resolves true once held,
 * false for a `tryOnce` attempt that would have to wait; rejects when stopped (the attempt's signal) and with
 * OurNodeGone when our node vanished (the attempt then starts over).
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
 *
 * The state of one wait lives in the fields of a WaitUntilHeld, and each step is a method: decide from a listing,
 * arm the watches, wait for deletions.
 */

import type { WatchEvent } from '../../client/types.js';
import { isCode } from '../../errors.js';
import { onConnectionEvent } from '../common/connection.js';
import { aborted } from '../common/errors.js';
import type { NodeOps } from '../common/nodes.js';
import type { OneShotWatch } from '../common/watches.js';
import { joinPath } from '../common/znode-names.js';
import { waitForEvent } from '../retry.js';
import type { PredicateResult } from './predicate.js';

/**
 * Up to this many blockers are watched at once. Deeper in the queue a waiter watches only the node just ahead,
 * so one deletion never wakes more than this many waiters besides that node's successor.
 */
const MAX_WATCHED_BLOCKERS = 8;

/** Thrown inside an attempt when our own node has vanished; the attempt then starts over under the retry policy. */
export class OurNodeGone extends Error {}

/**
 * Decides for one attempt from the directory's children as listed (unsorted); may consult the caller's other
 * holds (a reader's own write lock). Names the blockers only when there are at most `maxBlockers`.
 */
export type Decide = (children: readonly string[], ourName: string, maxBlockers: number) => PredicateResult;

/** What the wait needs from its attempt. */
export interface WaitOptions {
  readonly signal: AbortSignal | undefined;
  /** Give up (false) rather than wait: `timeoutMs: 0`. */
  readonly tryOnce: boolean;
  readonly decide: Decide;
  /** Watch our own node while remembering the blockers (see the file comment); default true. */
  readonly watchOwnNode: boolean;
}

/** A one-shot watch whose event is recorded (by the first reaction to it) once it fires. */
interface Observed {
  readonly watch: OneShotWatch;
  event: WatchEvent | undefined;
}

function observed(watch: OneShotWatch): Observed {
  const w: Observed = { watch, event: undefined };
  // The first reaction to the notification: it runs before anything that waits on a later notification.
  void watch.fired.then((event) => {
    w.event = event;
  });
  return w;
}

/** Up to `count` of the blockers nearest to us (the end of `ahead`, which is in lock order) not watched yet. */
function nearestUnwatched(ahead: readonly string[], watching: ReadonlyMap<string, unknown>, count: number): string[] {
  const picked: string[] = [];
  for (let i = ahead.length - 1; i >= 0 && picked.length < count; i--) {
    const name = ahead[i] as string;
    if (!watching.has(name)) picked.push(name);
  }
  return picked;
}

/** What waiting for deletions ended with. */
type Woken = 'held' | 'list' | 'top up';

export class WaitUntilHeld {
  readonly #ops: NodeOps;
  readonly #dir: string;
  readonly #ourPath: string;
  readonly #ourName: string;
  readonly #opts: WaitOptions;

  /** The listing made with our create, used for the first decision; then undefined. */
  #firstChildren: string[] | undefined;
  /** Blockers not yet seen deleted, in lock order; undefined: decide from a listing (and watch `#predecessor`). */
  #ahead: string[] | undefined;
  #predecessor = '';
  /** The blockers watched now, by name. */
  readonly #watching = new Map<string, Observed>();
  /** The watch on our own node, while remembering the blockers. */
  #own: Observed | undefined;
  /** Set by any connection event but RECONNECTED: from then on, list on every wake-up. */
  #linkBroke = false;
  #unsubscribe: (() => void) | undefined;

  constructor(ops: NodeOps, dir: string, ourPath: string, ourName: string, firstChildren: string[] | undefined, opts: WaitOptions) {
    this.#ops = ops;
    this.#dir = dir;
    this.#ourPath = ourPath;
    this.#ourName = ourName;
    this.#firstChildren = firstChildren;
    this.#opts = opts;
  }

  async run(): Promise<boolean> {
    try {
      for (;;) {
        this.#throwIfStopped();
        if (this.#mustList()) {
          if (await this.#decideFromListing()) return true;
        }
        if (this.#opts.tryOnce) return false;
        this.#throwIfStopped();
        if (this.#ahead !== undefined) this.#listenForLinkBreaks();
        await this.#armWatches();
        if ((await this.#waitForDeletions()) === 'held') return true;
      }
    } finally {
      this.#unsubscribe?.();
    }
  }

  #throwIfStopped(): void {
    const { signal } = this.#opts;
    if (signal?.aborted === true) throw aborted(signal, 'acquire', this.#dir);
  }

  /**
   * A listing is needed when not remembering the blockers, after a broken link, or to refresh: more unwatched
   * blockers than we would read at once. Most of those are usually gone (in a queue the ones nearer the head go
   * first), and one listing tells us which for the price of a single request, where reading them one by one would
   * cost a request each.
   */
  #mustList(): boolean {
    return this.#ahead === undefined || this.#linkBroke || this.#isRefreshDue(this.#ahead);
  }

  #isRefreshDue(ahead: readonly string[]): boolean {
    const watched = this.#watching.size;
    return watched < Math.min(MAX_WATCHED_BLOCKERS, ahead.length) && ahead.length - watched > MAX_WATCHED_BLOCKERS;
  }

  /** Lists (or takes the create's listing) and asks the predicate: true when held; sets what to watch otherwise. */
  async #decideFromListing(): Promise<boolean> {
    const refresh = this.#ahead !== undefined && !this.#linkBroke;
    if (!refresh && this.#watching.size > 0) await this.#dropAll();
    const children = this.#firstChildren ?? (await this.#listOrGone());
    this.#firstChildren = undefined;
    const verdict = this.#opts.decide(children, this.#ourName, Number.POSITIVE_INFINITY);
    // (nothing to take back on the first decision: an uncontended acquire resolves without another turn)
    if ((verdict.acquired || 'missing' in verdict) && this.#watching.size > 0) await this.#dropAll();
    if (verdict.acquired) return true;
    if ('missing' in verdict) throw new OurNodeGone();
    const ahead = this.#linkBroke || verdict.blockers === undefined ? undefined : [...verdict.blockers];
    this.#ahead = ahead;
    this.#predecessor = verdict.watchPath;
    // Watched nodes no longer listed are gone (their NodeDeleted came before this listing's reply).
    for (const name of [...this.#watching.keys()]) if (ahead === undefined || !ahead.includes(name)) this.#watching.delete(name);
    if (ahead === undefined) await this.#dropAll();
    return false;
  }

  #listenForLinkBreaks(): void {
    this.#unsubscribe ??= onConnectionEvent(this.#ops.client, (event) => {
      if (event !== 'RECONNECTED') this.#linkBroke = true;
    });
  }

  /**
   * Watches the nearest blockers not watched yet, up to MAX_WATCHED_BLOCKERS in all (or, when not remembering the
   * blockers, the one node to watch before listing again), and our own node the first time. Every read queues in
   * this tick, so they all leave in one write: one round trip however many.
   */
  async #armWatches(): Promise<void> {
    const ahead = this.#ahead;
    const targets = ahead === undefined ? [this.#predecessor] : nearestUnwatched(ahead, this.#watching, MAX_WATCHED_BLOCKERS - this.#watching.size);
    // (settled at once into a value: it may fail while we still wait for the other reads)
    const arming =
      ahead !== undefined && this.#opts.watchOwnNode && this.#own === undefined
        ? this.#watch(this.#ourPath).then((w) => ({ w }), (err: unknown) => ({ err }))
        : undefined;
    const reads = targets.map((name) => this.#watch(joinPath(this.#dir, name)));
    const settled = await Promise.allSettled(reads);
    const ownRead = await arming;
    for (const [i, r] of settled.entries()) {
      const name = targets[i] as string;
      if (r.status !== 'fulfilled') continue;
      if (r.value === undefined) this.#crossOff(name); // already gone
      else this.#watching.set(name, r.value);
    }
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed !== undefined || (ownRead !== undefined && 'err' in ownRead)) {
      await this.#dropAll();
      throw failed !== undefined ? failed.reason : (ownRead as { err: unknown }).err;
    }
    if (ownRead !== undefined) {
      this.#own = ownRead.w;
      if (this.#own === undefined) {
        await this.#dropAll();
        throw new OurNodeGone(); // our node is already gone
      }
    }
  }

  /** Waits until the blockers are all deleted ('held'), the watched ones need topping up, or a listing is needed. */
  async #waitForDeletions(): Promise<Woken> {
    for (;;) {
      const ahead = this.#ahead;
      if (ahead !== undefined && ahead.length === 0) return this.#allBlockersGone();
      // Some went: watch the next nearest (deleted ones are crossed off as their reads come back NONODE).
      if (ahead !== undefined && this.#watching.size < Math.min(MAX_WATCHED_BLOCKERS, ahead.length)) return 'top up';
      if (this.#watching.size === 0) return 'list'; // not remembering: the one we watched went; list again
      await this.#nextEvent();
      const own = this.#own?.event;
      if (own !== undefined) return this.#onOwnNodeEvent(own);
      if (this.#crossOffFired()) {
        this.#ahead = undefined;
        await this.#dropAll();
        return 'list';
      }
    }
  }

  /** No blocker left: held, unless the link broke or our own node's watch fired meanwhile (then list again). */
  async #allBlockersGone(): Promise<Woken> {
    const ownIntact = this.#opts.watchOwnNode ? this.#own !== undefined && this.#own.event === undefined : true;
    if (!this.#linkBroke && ownIntact) return 'held';
    this.#ahead = undefined;
    await this.#dropAll();
    return 'list';
  }

  /** Waits for any watched blocker or our own node to fire; when stopped first, takes the watches back and throws. */
  async #nextEvent(): Promise<void> {
    const wakes = [...this.#watching.values()].map((w) => w.watch.fired);
    if (this.#own !== undefined) wakes.push(this.#own.watch.fired);
    const outcome = await waitForEvent(Promise.race(wakes), this.#ops.clock, undefined, this.#opts.signal);
    if (outcome === 'fired') return;
    // Leaving without the events: take the watches back so none is left on the server. (The watch on our own
    // node goes with our node, which every way out deletes.)
    await this.#dropAll();
    this.#throwIfStopped();
  }

  /** Something happened to our own node: it was deleted (start over), or written (look again, re-arm). */
  async #onOwnNodeEvent(event: WatchEvent): Promise<Woken> {
    this.#own = undefined;
    this.#ahead = undefined;
    await this.#dropAll();
    if (event.type === 'NodeDeleted') throw new OurNodeGone();
    return 'list';
  }

  /**
   * Takes the fired blocker watches out: a deleted blocker is crossed off; a written one is still there and is
   * watched again when topping up; anything else (a session event) or a broken link: true, list again.
   */
  #crossOffFired(): boolean {
    let relist = this.#ahead === undefined;
    for (const [name, w] of this.#watching) {
      if (w.event === undefined) continue;
      this.#watching.delete(name);
      if (w.event.type === 'NodeDeleted' && w.event.state === 'SyncConnected' && !this.#linkBroke) this.#crossOff(name);
      else if (w.event.type !== 'NodeDataChanged' || this.#linkBroke) relist = true;
    }
    return relist;
  }

  #crossOff(name: string): void {
    const i = this.#ahead?.lastIndexOf(name) ?? -1;
    if (i >= 0) this.#ahead?.splice(i, 1);
  }

  async #dropAll(): Promise<void> {
    const left = [...this.#watching.values()];
    this.#watching.clear();
    await Promise.all(left.map((w) => (w.event === undefined ? w.watch.remove() : undefined)));
  }

  /**
   * A data watch on `path` (a blocker, or our own node); undefined when it is already gone (getData, not exists,
   * leaves no watch then). Retried across broken connections, like every read.
   */
  async #watch(path: string): Promise<Observed | undefined> {
    const { signal } = this.#opts;
    try {
      const read = await this.#ops.retrying(() => this.#ops.watchData(path, signal), signal);
      return observed(read.watch);
    } catch (err) {
      if (isCode(err, 'NONODE')) return undefined;
      throw err;
    }
  }

  async #listOrGone(): Promise<string[]> {
    const { signal } = this.#opts;
    try {
      return await this.#ops.retrying(() => this.#ops.client.getChildren(this.#dir, { signal }), signal);
    } catch (err) {
      // the directory itself is gone, so our node is too
      if (isCode(err, 'NONODE')) throw new OurNodeGone();
      throw err;
    }
  }
}
