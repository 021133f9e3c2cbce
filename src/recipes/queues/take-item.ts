/**
 * Taking one item node off a DistributedQueue, Curator's two ways (DistributedQueue.processNormally and
 * processWithLockSafety), each only the decisions: the queue's loop calls it per node in queue order.
 *
 * Normal: read the node, delete it at the version read (a consumer that loses the race gets NONODE or BADVERSION
 * and moves on), then hand its items to the consumer. The node is gone before its items are consumed: at most once.
 *
 * Lock-safe: create the ephemeral `<lockPath>/<name>` (NODEEXISTS: another consumer has it, so move on and watch its
 * lock), read the node, hand its items to the consumer, and only then delete the node and the lock together in one
 * multi (or, when the consumer threw and the error mode is REQUEUE, delete both and put the bytes back at the tail,
 * still in that multi). The multi is queued only while the session that made the lock is the client's session, in
 * the same tick as that check: a request of an expired session is refused by the server, so a consumer whose
 * session expired mid-item never deletes an item another consumer may now hold. That item is left for the next
 * consumer: at least once.
 */

import type { ZooKeeperClient } from '../../client.js';
import type { WriteOp } from '../../client/multi.js';
import { isCode } from '../../errors.js';
import { isConnected, onConnectionEvent, retryableOn } from '../common/connection.js';
import { ensureContainers, joinPath, type NodeOps } from '../common/nodes.js';
import { decodeQueueItems, type QueueSerializer } from './item-format.js';
import type { QueueConsumer, QueueErrorMode } from './queue-options.js';

/** What taking a node came to. */
export type Taken =
  /** Consumed or removed by us: nothing more to do with this name. */
  | 'done'
  /** Gone already (another consumer had it): nothing more to do with this name. */
  | 'gone'
  /** Another consumer holds its lock: look again once that lock goes. */
  | 'locked'
  /** Our consumer was stopped (close, or the lock's session ended) before the item's end: left in the queue. */
  | 'left';

/** What take() needs from its queue. */
export interface TakeContext<T> {
  readonly client: ZooKeeperClient;
  readonly ops: NodeOps;
  readonly queuePath: string;
  readonly lockPath: string | undefined;
  readonly errorMode: QueueErrorMode;
  readonly serializer: QueueSerializer<T>;
  /** Undefined to only remove (DistributedIdQueue.remove). */
  readonly consumer: QueueConsumer<T> | undefined;
  /** The name a requeued node gets (before its sequence). */
  readonly requeueName: (name: string) => string;
  readonly onError: (error: unknown, node: string | undefined) => void;
  /** The queue's stop (close). */
  readonly stop: AbortSignal;
}

/** Takes the node `name` the queue's way (see the file comment). Rejects only with errors the loop handles. */
export function take<T>(ctx: TakeContext<T>, name: string): Promise<Taken> {
  return ctx.lockPath === undefined ? takeNormally(ctx, name) : takeLockSafe(ctx, ctx.lockPath, name);
}

async function takeNormally<T>(ctx: TakeContext<T>, name: string): Promise<Taken> {
  const node = joinPath(ctx.queuePath, name);
  const stop = { signal: ctx.stop };
  try {
    const { data, stat } = ctx.consumer === undefined ? { data: undefined, stat: undefined } : await ctx.client.getData(node, stop);
    await ctx.client.delete(node, { version: stat?.version ?? -1, ...stop });
    // The node is gone already: a consumer that ignores the signal does not hold close() up.
    if (data !== undefined) await unlessStopped(consume(ctx, node, data, ctx.stop), ctx.stop);
    return 'done';
  } catch (err) {
    if (isCode(err, 'NONODE', 'BADVERSION')) return 'gone'; // another consumer got it
    throw err;
  }
}

async function takeLockSafe<T>(ctx: TakeContext<T>, lockPath: string, name: string): Promise<Taken> {
  const { client } = ctx;
  const node = joinPath(ctx.queuePath, name);
  const lock = joinPath(lockPath, name);
  const session = await lockItem(ctx, lockPath, lock);
  if (session === undefined) return 'locked';
  let released = false;
  try {
    let data: Uint8Array | undefined;
    if (ctx.consumer !== undefined) {
      try {
        ({ data } = await client.getData(node, { signal: ctx.stop }));
      } catch (err) {
        if (isCode(err, 'NONODE')) return 'gone'; // consumed and deleted by another consumer already
        throw err;
      }
    }
    let outcome: 'ok' | 'failed' | 'stopped' = 'ok';
    if (data !== undefined) outcome = await consumeWhileLocked(ctx, node, data, session);
    if (outcome === 'stopped') return 'left';
    const ops: WriteOp[] = [
      { kind: 'delete', path: lock, version: -1 },
      { kind: 'delete', path: node, version: -1 },
    ];
    if (outcome === 'failed' && ctx.errorMode === 'REQUEUE' && data !== undefined) {
      ops.push({ kind: 'create', path: joinPath(ctx.queuePath, ctx.requeueName(name)), data, mode: 'persistent-sequential' });
    }
    released = await finish(ctx, ops, session);
    return released ? 'done' : 'left';
  } finally {
    // Our lock, unless the multi took it or the session took it with it (deleteOnClose knows an ephemeral goes so).
    if (!released && client.sessionId === session) await ctx.ops.deleteOnClose(lock).catch((err: unknown) => ctx.onError(err, lock));
  }
}

/**
 * Creates the item's lock; resolves with the session that holds it, or undefined when another consumer does. A lock
 * of our own session found in the way (a create whose reply was lost) is ours. A create stopped in flight by close()
 * may have been made: it is looked for and deleted in the background (close() waits for that while the link answers).
 */
async function lockItem<T>(ctx: TakeContext<T>, lockPath: string, lock: string): Promise<bigint | undefined> {
  const { client } = ctx;
  for (let madeDirectory = false; ; ) {
    const session = client.sessionId;
    try {
      await client.create(lock, null, { mode: 'ephemeral', signal: ctx.stop });
      return session;
    } catch (err) {
      if (isCode(err, 'NODEEXISTS')) {
        const stat = await client.exists(lock, { signal: ctx.stop });
        if (stat === null) continue; // released meanwhile: try again
        return stat.ephemeralOwner === client.sessionId ? client.sessionId : undefined;
      }
      if (isCode(err, 'ABORTED')) {
        void ctx.ops.deleteIfCreated(lock, true);
        throw err;
      }
      if (retryableOn(client, err)) {
        // The outcome is unknown: settle it here (the next try finds our lock, or makes it), so no lock of ours is
        // left behind for a name the next pass may no longer list.
        await client.waitConnected({ signal: ctx.stop });
        continue;
      }
      if (!isCode(err, 'NONODE') || madeDirectory) throw err;
      madeDirectory = true;
      await ensureContainers(client, lockPath, ctx.stop);
    }
  }
}

/**
 * Hands the node's items to the consumer while its lock is ours: 'stopped' as soon as the queue closes or the lock's
 * session ends (the consumer's signal aborts then, and the item is left), else whether the consumer threw.
 */
async function consumeWhileLocked<T>(ctx: TakeContext<T>, node: string, data: Uint8Array, session: bigint): Promise<'ok' | 'failed' | 'stopped'> {
  const held = new AbortController();
  const onStop = (): void => held.abort(ctx.stop.reason);
  ctx.stop.addEventListener('abort', onStop, { once: true });
  const unsubscribe = onConnectionEvent(ctx.client, (event) => {
    if (event === 'LOST' || ctx.client.sessionId !== session) held.abort();
  });
  try {
    if (ctx.stop.aborted) return 'stopped';
    const stopped = new Promise<'stopped'>((resolve) => held.signal.addEventListener('abort', () => resolve('stopped'), { once: true }));
    return await Promise.race([consume(ctx, node, data, held.signal), stopped]);
  } finally {
    ctx.stop.removeEventListener('abort', onStop);
    unsubscribe();
    held.abort(); // a consumer still running is told its item is no longer its own
  }
}

/**
 * Runs the final multi while the lock's session is the client's, retrying it across broken links; true once it
 * applied (or turned out to have applied: our lock is gone), false when the session changed (the item is left).
 */
async function finish<T>(ctx: TakeContext<T>, ops: readonly WriteOp[], session: bigint): Promise<boolean> {
  const { client } = ctx;
  for (;;) {
    if (client.sessionId !== session) return false;
    try {
      // Queued in the same tick as the check above: it goes out on that session or fails with it.
      await client.multi(ops);
      return true;
    } catch (err) {
      // NONODE: the lock (deleted by an earlier try of this multi whose reply was lost) or the item is gone
      if (isCode(err, 'NONODE')) return true;
      if (!retryableOn(client, err)) throw err;
    }
    if (!isConnected(client)) await client.waitConnected();
  }
}

/**
 * Gives every item of the node to the consumer, in order: 'failed' once one throws (the rest are not given, as in
 * Curator's REQUEUE; in DELETE mode the rest still are), 'ok' otherwise. A node that is not Curator's item format is
 * reported and counts as consumed (Curator drops it too).
 */
async function consume<T>(ctx: TakeContext<T>, node: string, data: Uint8Array, signal: AbortSignal): Promise<'ok' | 'failed'> {
  const consumer = ctx.consumer;
  if (consumer === undefined) return 'ok';
  let items: Uint8Array[];
  try {
    items = decodeQueueItems(data, node);
  } catch (err) {
    ctx.onError(err, node);
    return 'ok';
  }
  let outcome: 'ok' | 'failed' = 'ok';
  for (const bytes of items) {
    try {
      await consumer(ctx.serializer.deserialize(bytes), { signal });
    } catch (err) {
      ctx.onError(err, node);
      outcome = 'failed';
      if (ctx.lockPath !== undefined && ctx.errorMode === 'REQUEUE') break;
    }
  }
  return outcome;
}

/** Waits for `work` unless `stop` fires first (the listener taken off again: the loop calls this per item). */
async function unlessStopped(work: Promise<unknown>, stop: AbortSignal): Promise<void> {
  if (stop.aborted) return;
  let onAbort!: () => void;
  const stopped = new Promise<void>((resolve) => {
    onAbort = resolve;
    stop.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([work, stopped]);
  } finally {
    stop.removeEventListener('abort', onAbort);
  }
}
