/**
 * Following an election without taking part, as etcd's Election.Observe does, on Curator's layout: who leads a
 * LeaderLatch or LeaderSelector path now, and again each time the leader changes. A dashboard, a router that sends
 * writes to the leader, or a test that waits for a failover reads it; none of them should have to campaign (a
 * LeaderLatch that never wants to lead still queues a node and can be elected).
 *
 * It reads the election path's children with a one-shot children watch and the contenders' ids from their nodes
 * (participant.ts, the reading getParticipants() does), and reads again when the watch fires. The client re-arms
 * the watch after a reconnect; after a session renewal the watch is gone with the old session, so the loop reads
 * again on the new one. The first observation comes as soon as the path has been read once (NO_LEADER when nobody
 * contends, or the path does not exist: then an exists watch waits for it).
 */

import type { ZooKeeperClient } from '../../client.js';
import { clockOf, type Clock } from '../../session/clock.js';
import { isCode } from '../../errors.js';
import { Backoff } from '../common/backoff.js';
import { failureKind } from '../common/supervised-loop.js';
import { checkRecipePath, joinPath, sortSequential } from '../common/nodes.js';
import { oneShotWatch, type OneShotWatch } from '../common/watches.js';
import { sleep, waitForEvent } from '../retry.js';
import { LOCK_NAME } from '../locks/naming.js';
import { LATCH_NAME } from './leader-latch.js';
import { NO_LEADER, readIds, type Participant } from './participant.js';

/** What `watchLeader` reports: the leader at one moment, with everyone queued behind it. */
export interface LeaderObservation {
  /** The leader (`isLeader: true`), or NO_LEADER when nobody contends or the path does not exist. */
  readonly leader: Participant;
  /** The leader's node (full path); undefined with NO_LEADER. A leader re-elected under the same id has a new node. */
  readonly node: string | undefined;
  /** Every contender in election order, the leader first (as getParticipants() returns them). */
  readonly participants: readonly Participant[];
}

/** Options of `watchLeader`. */
export interface WatchLeaderOptions {
  /**
   * The name in the contenders' nodes: `latch-` (LATCH_NAME) for a LeaderLatch, `lock-` (LOCK_NAME) for a
   * LeaderSelector. Default: told from the children (`latch-` when any child has it, else `lock-`).
   */
  readonly lockName?: string;
  /** Ends the iteration (it finishes; it does not throw). */
  readonly signal?: AbortSignal;
  /** Timers for the back-off after failures (tests). */
  readonly clock?: Clock;
}

/**
 * The leader of the LeaderLatch or LeaderSelector at `path` now, then again whenever it changes (a change among the
 * queued contenders alone is not reported). Ends when `signal` fires, when the loop consuming it stops, or when the
 * client ends (closed, or expired with renewal off); never throws for a lost link or a renewed session, which it
 * waits out. Works beside Curator's own contenders on the same path.
 */
export async function* watchLeader(client: ZooKeeperClient, path: string, options: WatchLeaderOptions = {}): AsyncGenerator<LeaderObservation, void, undefined> {
  checkRecipePath(path, 'watchLeader');
  const clock = clockOf(options.clock);
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted === true) stop.abort();
  const backoff = new Backoff();
  let last: string | undefined;
  let armed: OneShotWatch | undefined;
  try {
    while (!stop.signal.aborted && !client.ended) {
      try {
        if (backoff.delayMs > 0) await sleep(backoff.delayMs, clock, stop.signal);
        await client.waitConnected({ signal: stop.signal });
        const read = await readElection(client, path, options.lockName, stop.signal);
        armed = read.watch;
        backoff.reset();
        const key = `${read.observation.node ?? ''}\n${read.observation.leader.id}`;
        if (key !== last) {
          last = key;
          yield read.observation;
        }
        // A session renewal fires the watch too (its expiry event), so this never outlives the session it was set in.
        if ((await waitForEvent(read.watch.fired, clock, undefined, stop.signal)) === 'fired') armed = undefined;
      } catch (err) {
        // The decision of every recipe loop (an async generator cannot be a SupervisedLoop: it yields in its turn).
        const kind = failureKind(client, err);
        if (stop.signal.aborted || kind === 'end') return;
        if (kind === 'backoff') backoff.failed();
      }
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    stop.abort();
    void armed?.remove();
  }
}

/** One read of the election, with the watch that says when to read again. */
async function readElection(
  client: ZooKeeperClient,
  path: string,
  lockName: string | undefined,
  signal: AbortSignal,
): Promise<{ observation: LeaderObservation; watch: OneShotWatch }> {
  let children: string[];
  let watch: OneShotWatch;
  try {
    const read = await client.getChildren(path, { watch: true, signal });
    children = read.children;
    watch = oneShotWatch(client, path, read.watch, 'children');
  } catch (err) {
    if (!isCode(err, 'NONODE')) throw err;
    // No election yet: wait for the path to be made (an exists watch fires on its creation).
    const { stat, watch: created } = await client.exists(path, { watch: true, signal });
    watch = oneShotWatch(client, path, created, 'data');
    // Made between the two reads: read its children now (after taking the watch back).
    if (stat !== null) {
      await watch.remove();
      return readElection(client, path, lockName, signal);
    }
    children = [];
  }
  const name = lockName ?? (children.some((c) => c.includes(LATCH_NAME)) ? LATCH_NAME : LOCK_NAME);
  const nodes = sortSequential(children, name).map((child) => joinPath(path, child));
  const ids = await readIds(client, nodes);
  const participants: Participant[] = [];
  let node: string | undefined;
  ids.forEach((id, i) => {
    if (id === undefined) return;
    if (participants.length === 0) node = nodes[i];
    participants.push({ id, isLeader: participants.length === 0 });
  });
  return { observation: { leader: participants[0] ?? NO_LEADER, node, participants }, watch };
}
