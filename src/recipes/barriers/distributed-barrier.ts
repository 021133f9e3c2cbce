/**
 * DistributedBarrier: Curator's barrier. While the barrier node exists, waitOnBarrier() waits; removing the node
 * releases every waiter. Each wake-up re-checks the node, so a spurious one (a data change, a reconnect) never
 * releases a waiter early.
 *
 * Across a session expiry (the client opens a new session by itself): the barrier node is persistent, so it stays
 * as it was. A waiter's watch belonged to the old session and fires with the expiry; the waiter looks again on the
 * new session, so it is released if the barrier was removed meanwhile and otherwise waits on a new watch, within its
 * timeoutMs or signal. Only a client that has ended rejects it (CLOSED, AUTHFAILED, or SESSIONEXPIRED with renewal
 * off). setBarrier() and removeBarrier() are one call each: one on the wire when the link drops or the session
 * expires rejects with that error (CONNECTIONLOSS, SESSIONEXPIRED), and both are safe to call again.
 */

import type { ZooKeeperClient } from '../../client.js';
import { Deadline, deadlineOutcome, eventOrDeadline, type WaitOptions } from '../common/deadline.js';
import { retryableOn } from '../common/connection.js';
import { isCode } from '../../errors.js';
import { checkRecipePath, ensureContainers, parentPath } from '../common/nodes.js';
import { clockOf, type Clock } from '../../session/clock.js';

/**
 * Curator's DistributedBarrier: one node at `path`; while it exists, waitOnBarrier() blocks, and deleting it
 * (removeBarrier(), from any process, Curator's too) releases every waiter. Nothing to close: it holds no watch
 * once its calls have returned.
 *
 * Usage: the coordinator calls `setBarrier()`, workers `await barrier.waitOnBarrier()`, and `removeBarrier()` lets them go.
 */
export class DistributedBarrier {
  readonly #client: ZooKeeperClient;
  readonly #clock: Clock;

  constructor(
    client: ZooKeeperClient,
    /** The barrier node. */
    readonly path: string,
    options: { clock?: Clock } = {},
  ) {
    checkRecipePath(path, 'DistributedBarrier');
    this.#client = client;
    this.#clock = clockOf(options.clock);
  }

  /** Raises the barrier (creates its node; parents as containers). Already raised is fine. */
  async setBarrier(): Promise<void> {
    for (;;) {
      try {
        await this.#client.create(this.path, null);
        return;
      } catch (err) {
        if (isCode(err, 'NODEEXISTS')) return;
        if (!isCode(err, 'NONODE')) throw err;
        await ensureContainers(this.#client, parentPath(this.path));
      }
    }
  }

  /** Lowers the barrier, releasing every waiter. Already lowered is fine. */
  async removeBarrier(): Promise<void> {
    try {
      await this.#client.delete(this.path);
    } catch (err) {
      if (!isCode(err, 'NONODE')) throw err;
    }
  }

  /**
   * Waits until the barrier is lowered: true then (at once if it is not raised), false when `timeoutMs` passes
   * first; ABORTED on `signal`; the session's error if it ends.
   */
  async waitOnBarrier(options: WaitOptions = {}): Promise<boolean> {
    using deadline = new Deadline(options, 'DistributedBarrier.waitOnBarrier', this.path, this.#clock);
    for (;;) {
      if (deadline.stopped) return deadlineOutcome(deadline, 'DistributedBarrier.waitOnBarrier');
      try {
        await this.#client.waitConnected(deadline.stopOption);
        const { stat, watch } = await this.#client.exists(this.path, { watch: true, ...deadline.stopOption });
        if (stat === null) return true;
        if (!(await eventOrDeadline(watch, deadline, 'DistributedBarrier.waitOnBarrier'))) return false;
      } catch (err) {
        if (deadline.stopped) return deadlineOutcome(deadline, 'DistributedBarrier.waitOnBarrier');
        // a broken link or an expired session that the client renews: look again once connected
        if (!retryableOn(this.#client, err)) throw err;
      }
    }
  }
}
