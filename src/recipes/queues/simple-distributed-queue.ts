/**
 * SimpleDistributedQueue: Curator's simple queue (the ZooKeeper distribution's queue recipe), on Curator's nodes:
 * each item is a persistent sequential `qn-<seq>` child of the queue's node holding the item's bytes as they are,
 * so a Curator process and a zkwire process offer to and take from one queue.
 *
 * The head is the first `qn-` child in text order (Curator's Collections.sort; other children are not items).
 * Taking reads it and deletes it; when two consumers read the same head, one delete fails NONODE and that consumer
 * moves to the next item, so every item is taken once. Waiting for an item is a child watch, never a poll.
 *
 * A read that fails on a broken link is made again once connected (on a renewed session too: the queue's nodes are
 * persistent). A write that fails so is not: an offer() whose reply was lost may have queued its item, a take()
 * whose delete reply was lost may have removed its item, and either rejects with that error (CONNECTIONLOSS) rather
 * than queue twice or drop an item silently.
 */

import type { ZooKeeperClient } from '../../client.js';
import { isCode } from '../../errors.js';
import { utf8Encode } from '../../protocol/utf8.js';
import { clockOf, type Clock } from '../../session/clock.js';
import { retryableOn } from '../common/connection.js';
import { Deadline, deadlineOutcome, eventOrDeadline, type WaitOptions } from '../common/deadline.js';
import { badArgument } from '../common/errors.js';
import { checkRecipePath, joinPath, NodeOps } from '../common/nodes.js';
import { oneShotWatch, type OneShotWatch } from '../common/watches.js';
import { SIMPLE_QUEUE_PREFIX, textOrder } from './node-names.js';
import { putSequentialNode } from './put-node.js';

/** A delete whose outcome is unknown: reported as it is, never retried. */
class RemoveFailed {
  constructor(readonly error: unknown) {}
}

/**
 * Curator's SimpleDistributedQueue: a FIFO of byte strings under one node (`qn-` persistent sequential children).
 * Nothing to start or close: it holds no watch once its calls have returned.
 *
 * Usage: `await queue.offer('job-1')` on one side, `const bytes = await queue.take()` on the other.
 */
export class SimpleDistributedQueue {
  readonly #client: ZooKeeperClient;
  readonly #clock: Clock;

  constructor(
    client: ZooKeeperClient,
    /** The queue's node; its `qn-` children are the items. */
    readonly path: string,
    options: { readonly clock?: Clock } = {},
  ) {
    checkRecipePath(path, 'SimpleDistributedQueue');
    this.#client = client;
    this.#clock = clockOf(options.clock);
  }

  /** Adds an item at the tail (a string is sent as UTF-8); resolves with its node's path. */
  async offer(data: Uint8Array | string, options: { readonly signal?: AbortSignal } = {}): Promise<string> {
    if (typeof data !== 'string' && !(data instanceof Uint8Array)) throw badArgument('SimpleDistributedQueue.offer', this.path, 'the item must be a Uint8Array or a string');
    const bytes = typeof data === 'string' ? utf8Encode(data) : data;
    using deadline = new Deadline(options, 'SimpleDistributedQueue.offer', this.path, this.#clock);
    return putSequentialNode(this.#client, this.path, SIMPLE_QUEUE_PREFIX, bytes, deadline.signal);
  }

  /** The head's bytes without removing it; null when the queue is empty. */
  async peek(options: { readonly signal?: AbortSignal } = {}): Promise<Uint8Array | null> {
    using deadline = new Deadline(options, 'SimpleDistributedQueue.peek', this.path, this.#clock);
    const head = await this.#retrying(deadline, () => this.#head(false, false, deadline));
    return 'data' in head ? head.data : null;
  }

  /**
   * Removes the head and resolves with its bytes; null when the queue is empty, at once by default, or once
   * `timeoutMs` passes with no item. ABORTED on `signal`.
   */
  poll(options: WaitOptions = {}): Promise<Uint8Array | null> {
    return this.#poll({ timeoutMs: 0, ...options }, 'SimpleDistributedQueue.poll');
  }

  /** Removes the head and resolves with its bytes, waiting for an item as long as it takes. ABORTED on `signal`. */
  async take(options: { readonly signal?: AbortSignal } = {}): Promise<Uint8Array> {
    const { signal } = options;
    return (await this.#poll(signal === undefined ? {} : { signal }, 'SimpleDistributedQueue.take')) as Uint8Array;
  }

  async #poll(options: WaitOptions, what: string): Promise<Uint8Array | null> {
    using deadline = new Deadline(options, what, this.path, this.#clock);
    // The first look sets no watch: a queue with an item in it is served without leaving one behind.
    for (let watch = false; ; watch = true) {
      if (deadline.stopped) {
        deadlineOutcome(deadline, what); // throws unless it was the timeout
        return null;
      }
      try {
        const head = await this.#retrying(deadline, () => this.#head(true, watch, deadline));
        if ('data' in head) return head.data;
        if ('missing' in head) {
          // No queue node yet: make it (Curator's ensurePath), then look again with a watch.
          await new NodeOps(this.#client, { clock: this.#clock }).makeDirectory(this.path, deadline.signal);
          continue;
        }
        const empty = head.empty;
        if (empty !== undefined) {
          // A wait that ends without the event takes its watch back, not awaited: on a link that froze unnoticed
          // the removal would wait for the client to notice, and the caller's deadline must hold.
          const fired = await eventOrDeadline(empty.fired, deadline, what).catch((err: unknown) => {
            void empty.remove();
            throw err;
          });
          if (!fired) {
            void empty.remove();
            return null;
          }
        }
      } catch (err) {
        if (err instanceof RemoveFailed) throw err.error;
        if (!deadline.stopped) throw err;
        deadline.settle(err); // throws unless it was the timeout
        return null;
      }
    }
  }

  /** Reads made again after a broken link or a renewed session, within the deadline. */
  async #retrying<T>(deadline: Deadline, run: () => Promise<T>): Promise<T> {
    for (;;) {
      try {
        return await run();
      } catch (err) {
        if (err instanceof RemoveFailed || deadline.stopped || !retryableOn(this.#client, err)) throw err;
        await this.#client.waitConnected(deadline.stopOption);
      }
    }
  }

  /**
   * The head item (removed when `remove`); or that the queue is empty, with the child watch set when `watch`; or
   * that the queue's node is missing. A watch set while an item was found is taken back.
   */
  async #head(remove: boolean, watch: boolean, deadline: Deadline): Promise<Head> {
    let children: string[];
    let fired: OneShotWatch | undefined;
    try {
      if (watch) {
        const listed = await this.#client.getChildren(this.path, { watch: true, ...deadline.stopOption });
        children = listed.children;
        fired = oneShotWatch(this.#client, this.path, listed.watch, 'children');
      } else children = await this.#client.getChildren(this.path, deadline.stopOption);
    } catch (err) {
      if (isCode(err, 'NONODE')) return { missing: true };
      throw err;
    }
    for (const name of children.filter((child) => child.startsWith(SIMPLE_QUEUE_PREFIX)).sort(textOrder)) {
      const node = joinPath(this.path, name);
      let data: Uint8Array;
      try {
        ({ data } = await this.#client.getData(node, deadline.stopOption));
        if (remove) await this.#client.delete(node, deadline.stopOption).catch((err: unknown) => {
          throw isCode(err, 'NONODE') ? err : new RemoveFailed(err);
        });
      } catch (err) {
        if (isCode(err, 'NONODE')) continue; // another consumer took it first
        throw err;
      }
      await fired?.remove();
      return { data };
    }
    return { empty: fired };
  }
}

/** What a look at the queue found. */
type Head = { readonly data: Uint8Array } | { readonly missing: true } | { readonly empty: OneShotWatch | undefined };
