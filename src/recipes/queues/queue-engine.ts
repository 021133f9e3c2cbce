/**
 * The one engine under DistributedQueue, DistributedIdQueue, DistributedPriorityQueue and DistributedDelayQueue
 * (Curator builds the last three on DistributedQueue the same way): the lifecycle, put, and the consumer's loop.
 * A flavour brings only its decisions: the order items are taken in, how long an item must still wait, and the
 * name a requeued node gets.
 *
 * The loop: list the queue's node with a child watch, take the `queue-` nodes in the flavour's order (take-item.ts),
 * then wait for the first of: the child watch, the lock of a node another consumer holds (lock-safe mode: its
 * ephemeral lock goes when that consumer finishes or dies, which changes no child of the queue), the time the first
 * delayed node is due, close(). The watches of a pass are taken back after it, so none piles up. A broken link is
 * waited out, a renewed session listed again (the queue's nodes are persistent; a lock of the old session went with
 * it); a failure no reconnect fixes is reported to `onError` and retried with a back-off.
 */

import type { ZooKeeperClient } from '../../client.js';
import { isCode } from '../../errors.js';
import { clockOf, type Clock } from '../../session/clock.js';
import { waitForEvent } from '../retry.js';
import { retryableOn } from '../common/connection.js';
import { badArgument, illegalState } from '../common/errors.js';
import { SupervisedLoop, type TurnOutcome } from '../common/supervised-loop.js';
import { Lifecycle, type RecipeState } from '../common/lifecycle.js';
import { checkRecipePath, cleanupsSettledWhileConnected, ensureContainers, joinPath, NodeOps } from '../common/nodes.js';
import { oneShotWatch, type OneShotWatch } from '../common/watches.js';
import { ItemHandoff } from './item-handoff.js';
import { encodeQueueItems } from './item-format.js';
import { QUEUE_ITEM_NAME } from './node-names.js';
import { putSequentialNode } from './put-node.js';
import type { DistributedQueueOptions } from './queue-options.js';
import { take, type TakeContext } from './take-item.js';

/** What makes one queue flavour differ from another. */
export interface QueueFlavour {
  /** The recipe's name, for errors. */
  readonly recipe: string;
  /** The order nodes are taken in. */
  readonly order: (a: string, b: string) => number;
  /** How long the node must still wait, in ms (0: due). */
  readonly delayOf?: (name: string) => number;
  /** The name (before its sequence) of a node put back after its consumer threw (Curator's makeRequeueItemPath). */
  readonly requeueName: (name: string) => string;
}

export class QueueEngine<T> {
  readonly #client: ZooKeeperClient;
  readonly #options: DistributedQueueOptions<T>;
  readonly #flavour: QueueFlavour;
  readonly #life: Lifecycle;
  readonly #ops: NodeOps;
  readonly #clock: Clock;
  readonly #stop = new AbortController();
  #loop: SupervisedLoop | undefined;
  /** The consumer loop of the items() iteration in progress, if any (one consumer per queue object). */
  #iteration: SupervisedLoop | undefined;
  /** The last items() iteration's loop (it may finish a take after its loop was left). */
  #lastIteration: SupervisedLoop | undefined;
  /** Resolves once the last items() iteration's loop has ended. */
  #iterationEnded: Promise<void> = Promise.resolve();
  #ready = false;

  constructor(client: ZooKeeperClient, readonly path: string, options: DistributedQueueOptions<T>, flavour: QueueFlavour) {
    const what = flavour.recipe;
    checkRecipePath(path, what);
    if (options === null || typeof options !== 'object') throw badArgument(what, path, 'options with a serializer are required');
    const { serializer, consumer, lockPath, errorMode } = options;
    if (serializer === null || typeof serializer !== 'object' || typeof serializer.serialize !== 'function' || typeof serializer.deserialize !== 'function') {
      throw badArgument(what, path, 'serializer must have serialize(item) and deserialize(bytes)');
    }
    if (consumer !== undefined && typeof consumer !== 'function') throw badArgument(what, path, 'consumer must be a function');
    if (lockPath !== undefined) checkRecipePath(lockPath, `${what} lockPath`);
    if (errorMode !== undefined && errorMode !== 'REQUEUE' && errorMode !== 'DELETE') throw badArgument(what, path, "errorMode must be 'REQUEUE' or 'DELETE'");
    this.#client = client;
    this.#options = options;
    this.#flavour = flavour;
    this.#life = new Lifecycle(what, path);
    this.#clock = clockOf(options.clock);
    this.#ops = new NodeOps(client, { clock: this.#clock });
  }

  get state(): RecipeState {
    return this.#life.state;
  }

  start(signal: AbortSignal | undefined): Promise<void> {
    return this.#life.start(signal, () => {
      this.#loop = this.#consumerLoop(this.#context());
      this.#loop.start();
    });
  }

  async close(): Promise<void> {
    this.#life.close();
    this.#stop.abort();
    await Promise.all([this.#loop?.stop(), this.#lastIteration?.stop()]);
    await cleanupsSettledWhileConnected(this.#client);
  }

  /**
   * The items as an async iterable, for a queue made without a consumer (see item-handoff.ts for when an item counts
   * as consumed). It ends when the queue closes, when `signal` fires, when the loop over it is left, or when the
   * client ends; it waits out a broken link. ILLEGAL_STATE unless started, with a `consumer` option, or while
   * another items() iteration of this queue runs.
   */
  items(signal: AbortSignal | undefined): AsyncIterableIterator<T> {
    const what = `${this.#flavour.recipe}.items`;
    this.#life.requireStarted('items');
    if (this.#options.consumer !== undefined || this.#iteration !== undefined) {
      throw illegalState(what, this.path, 'a queue has one consumer: its consumer option, or one items() iteration at a time');
    }
    // A loop left with an item in hand finishes that item's take (return() waits for it; close() or `signal` cut it
    // short): the next iteration of this queue starts after it, so two never hold one item (a lock of our own
    // session is taken as ours).
    const previous = this.#iterationEnded;
    let leaving = false;
    const handoff = new ItemHandoff<T>(() => void loop.stop());
    const loop = this.#consumerLoop({ ...this.#context(), consumer: (item, { signal: itemSignal }) => handoff.offer(item, itemSignal) }, () => leaving);
    this.#iteration = this.#lastIteration = loop;
    let started = false;
    const ended = (this.#iterationEnded = new Promise<void>((resolve) => loop.signal.addEventListener('abort', () => resolve(), { once: true })));
    const stop = (): Promise<void> => loop.stop();
    const release = (): void => {
      handoff.end();
      signal?.removeEventListener('abort', onAbort);
      if (this.#iteration === loop) this.#iteration = undefined;
    };
    const onAbort = (): void => void stop();
    loop.signal.addEventListener('abort', release, { once: true });
    if (signal?.aborted === true) void stop();
    else signal?.addEventListener('abort', onAbort, { once: true });
    return {
      [Symbol.asyncIterator]() {
        return this;
      },
      next: (): Promise<IteratorResult<T>> => {
        if (!started) {
          started = true;
          void previous.then(() => loop.start());
        }
        return handoff.next();
      },
      return: async (): Promise<IteratorResult<T>> => {
        leaving = true;
        if (handoff.leave()) await ended;
        else await stop();
        return { value: undefined, done: true };
      },
    };
  }

  async dispose(): Promise<void> {
    if (this.#life.disposing()) await this.close();
  }

  /** Puts one node holding `items` (Curator's put / putMulti), named `queue-<suffix><seq>`; resolves with its path. */
  async put(items: readonly T[], suffix: string, signal: AbortSignal | undefined, what: string): Promise<string> {
    this.#life.requireStarted(what);
    if (!Array.isArray(items) || items.length === 0) throw badArgument(`${this.#flavour.recipe}.${what}`, this.path, 'at least one item is required');
    const data = encodeQueueItems(items.map((item) => this.#serialize(item, what)));
    return putSequentialNode(this.#client, this.path, QUEUE_ITEM_NAME + suffix, data, signal);
  }

  #serialize(item: T, what: string): Uint8Array {
    const bytes = this.#options.serializer.serialize(item);
    if (!(bytes instanceof Uint8Array)) throw badArgument(`${this.#flavour.recipe}.${what}`, this.path, 'the serializer must return a Uint8Array');
    return bytes;
  }

  /** Removes every node whose name `matches`, lock-safe when the queue is (Curator's DistributedIdQueue.remove). */
  async remove(matches: (name: string) => boolean, what: string): Promise<number> {
    this.#life.requireStarted(what);
    let children: string[];
    try {
      children = await this.#client.getChildren(this.path, { signal: this.#stop.signal });
    } catch (err) {
      if (isCode(err, 'NONODE')) return 0;
      throw err;
    }
    const ctx = { ...this.#context(), consumer: undefined };
    let removed = 0;
    for (const name of children.filter((child) => child.startsWith(QUEUE_ITEM_NAME) && matches(child))) {
      if ((await take(ctx, name)) === 'done') removed++;
    }
    return removed;
  }

  #context(): TakeContext<T> {
    const { lockPath, errorMode, serializer, consumer, onError } = this.#options;
    return {
      client: this.#client,
      ops: this.#ops,
      queuePath: this.path,
      lockPath,
      errorMode: errorMode ?? 'REQUEUE',
      serializer,
      consumer,
      requeueName: this.#flavour.requeueName,
      onError: (error, node) => {
        try {
          onError?.(error, node);
        } catch {
          // a reporter's own failure must not stop the queue
        }
      },
      stop: this.#stop.signal,
    };
  }

  /**
   * The loop that makes the queue's nodes (the first work, start()'s promise) and, with a consumer in `ctx`, takes
   * what is due pass after pass; a failure no reconnect fixes goes to onError and is retried with a back-off.
   */
  #consumerLoop(base: TakeContext<T>, leaving: () => boolean = () => false): SupervisedLoop {
    let ctx = base;
    const loop = new SupervisedLoop(
      this.#client,
      async (): Promise<TurnOutcome> => {
        if (!this.#ready) {
          // The first work: the queue's node and the lock directory exist (Curator's start()).
          await ensureContainers(this.#client, this.path, ctx.stop);
          if (ctx.lockPath !== undefined) await ensureContainers(this.#client, ctx.lockPath, ctx.stop);
          this.#ready = true;
          this.#life.ready();
        }
        if (ctx.consumer === undefined) return 'done';
        await this.#pass(ctx, leaving);
        return leaving() ? 'done' : 'again';
      },
      {
        clock: this.#clock,
        recipe: this.#flavour.recipe,
        path: this.path,
        signal: this.#stop.signal,
        onEnd: (err) => this.#life.end(err),
        onError: (err) => {
          if (retryableOn(this.#client, err)) return; // the link came back meanwhile: not worth a report
          if (!this.#ready) this.#life.fail(err);
          ctx.onError(err, undefined);
        },
      },
    );
    ctx = { ...base, stop: loop.signal };
    return loop;
  }

  /** One look at the queue: take what is due, then wait for something to change (see the file comment). */
  async #pass(ctx: TakeContext<T>, leaving: () => boolean): Promise<void> {
    const stop = ctx.stop;
    let listed: { children: string[]; watch: OneShotWatch };
    try {
      listed = await this.#ops.watchChildren(this.path, stop);
    } catch (err) {
      if (!isCode(err, 'NONODE')) throw err;
      // the empty container was removed by the server: make it again
      await ensureContainers(this.#client, this.path, stop);
      return;
    }
    const wakeUps: OneShotWatch[] = [listed.watch];
    try {
      let dueInMs: number | undefined;
      for (const name of listed.children.filter((child) => child.startsWith(QUEUE_ITEM_NAME)).sort(this.#flavour.order)) {
        if (stop.aborted) return;
        const delay = this.#flavour.delayOf?.(name) ?? 0;
        if (delay > 0) {
          dueInMs = delay; // in time order: every node after it is due later
          break;
        }
        const taken = await take(ctx, name);
        if (taken === 'left' || leaving()) return;
        if (taken === 'locked') {
          const lock = await this.#watchLock(joinPath(ctx.lockPath as string, name), stop);
          if (lock === undefined) return; // released meanwhile: look again now
          wakeUps.push(lock);
        }
      }
      const due = dueInMs === undefined ? undefined : this.#clock.now() + dueInMs;
      await waitForEvent(Promise.race(wakeUps.map((w) => w.fired)), this.#clock, due, stop);
    } finally {
      const removed = Promise.all(wakeUps.map((w) => w.remove().catch(() => undefined)));
      // Awaited between passes (so the next listing's watch is set after the removal); not by close(), which must
      // not wait on a link that froze without the client noticing yet.
      if (!stop.aborted) await removed;
    }
  }

  /** An exists watch on another consumer's lock; undefined when the lock is gone already. */
  async #watchLock(lock: string, stop: AbortSignal): Promise<OneShotWatch | undefined> {
    const { stat, watch } = await this.#client.exists(lock, { watch: true, signal: stop });
    const handle = oneShotWatch(this.#client, lock, watch, 'data');
    if (stat !== null) return handle;
    await handle.remove();
    return undefined;
  }
}
