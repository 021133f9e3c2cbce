/**
 * One session slot of the chaos run: a zkwire client on the three proxies, running lock cycles until told to stop.
 * The slot keeps its client and its lock recipes across session expiries: the client renews its own session
 * (LOST, then RECONNECTED with a new session) and the recipes carry on on it. Only a client that has ended (which
 * renewal makes impossible short of a close or an auth failure) is replaced, by a new client generation named
 * s3.1, s3.2, ... in the report.
 *
 * A cycle takes one of the locks (a mutex, a read or write lock, a semaphore lease) with a timeout, enters the
 * fenced resource with the lease's fencing token, does a few writes spaced by short sleeps, and leaves. It leaves
 * at once when the lease's lock-lost signal fires (the default `suspended` policy: the connection dropped and
 * someone else may get the lock), and stops writing when the resource refuses it. Mutex and write-lock holders
 * sometimes also write through `guardedMulti`, which the server applies only while their lock node exists.
 */

import { Op, ZooKeeperClient } from '../../src/node.js';
import { ZooKeeperError } from '../../src/errors.js';
import {
  InterProcessMutex,
  InterProcessReadWriteLock,
  InterProcessSemaphoreV2,
  type Lease,
  type NotAcquired,
} from '../../src/index.js';
import type { FencedResource, HolderKind } from './fenced-resource.js';
import type { OpTracker } from './op-tracker.js';
import type { Prng } from '../harness/prng.js';
import { trackedClient } from './tracked-client.js';
import type { Watchdog } from './watchdog.js';

export interface LockLayout {
  readonly mutexes: readonly string[];
  readonly readWrite: string;
  readonly semaphore: string;
  readonly semaphoreLeases: number;
  /** Persistent node per lock for guarded writes. */
  dataNodeOf(lock: string): string;
}

export interface SlotContext {
  readonly slot: number;
  /** The three shared proxies, or this slot's own links (see private-links.ts). */
  readonly connectString: string;
  readonly sessionTimeoutMs: number;
  readonly layout: LockLayout;
  readonly prng: Prng;
  readonly tracker: OpTracker;
  readonly watchdog: Watchdog;
  readonly resource: FencedResource;
  /** Aborts when the run is over: pending acquires give up, cycles finish, the slot returns. */
  readonly stop: AbortSignal;
  /** Each client generation is handed over here; the engine closes them all at the end. */
  readonly onClient: (session: string, client: ZooKeeperClient) => void;
}

/**
 * Bounds for the watchdog, from the session timeout T (see watchdog.ts for why).
 *
 * `leaveMs` bounds what must reach the server to finish: a lease's release, a latch's or a member's close. Each
 * deletes its node, retrying through reconnects until the node is gone; when the session expires meanwhile, the
 * delete is tried again on the client's new session (which answers that the node is gone). So the longest honest
 * wait is from the last word with a server to the client-side expiry (4/3·T), plus one pass over the hosts for
 * the new session (T/n each, so T), plus the allowance.
 */
export function boundsFor(sessionTimeoutMs: number): {
  requestMs: number;
  disconnectedMs: number;
  acquireTimeoutMs: number;
  leaveMs: number;
  allowanceMs: number;
} {
  const T = sessionTimeoutMs;
  const allowanceMs = 2000;
  return {
    requestMs: 2 * T + allowanceMs,
    disconnectedMs: Math.ceil((4 * T) / 3) + allowanceMs,
    acquireTimeoutMs: 3 * T,
    leaveMs: Math.ceil((4 * T) / 3) + T + allowanceMs,
    allowanceMs,
  };
}

type Choice = { kind: 'mutex'; path: string } | { kind: 'read' | 'write'; path: string } | { kind: 'semaphore'; path: string };

interface Recipes {
  readonly mutexes: Map<string, InterProcessMutex>;
  readonly rw: InterProcessReadWriteLock;
  readonly semaphore: InterProcessSemaphoreV2;
}

export async function runSlot(ctx: SlotContext): Promise<void> {
  const bounds = boundsFor(ctx.sessionTimeoutMs);
  for (let generation = 0; !ctx.stop.aborted; generation++) {
    const session = `s${ctx.slot}.${generation}`;
    let client: ZooKeeperClient;
    try {
      const connecting = ZooKeeperClient.connect(ctx.connectString, {
        sessionTimeoutMs: ctx.sessionTimeoutMs,
        connectTimeoutMs: 2 * ctx.sessionTimeoutMs,
      });
      client = await ctx.tracker.track(session, 'connect', connecting, { boundMs: 2 * ctx.sessionTimeoutMs + bounds.allowanceMs });
    } catch {
      // No session now (an election, a partition): try again shortly.
      await pause(ctx.prng.range(100, 500));
      continue;
    }
    ctx.onClient(session, client);
    ctx.watchdog.watch(session, client);
    const tracked = trackedClient(client, ctx.tracker, session, bounds.requestMs);
    const recipes: Recipes = {
      mutexes: new Map(ctx.layout.mutexes.map((p) => [p, new InterProcessMutex(tracked, p)])),
      rw: new InterProcessReadWriteLock(tracked, ctx.layout.readWrite),
      semaphore: new InterProcessSemaphoreV2(tracked, ctx.layout.semaphore, ctx.layout.semaphoreLeases),
    };
    while (!ctx.stop.aborted && !client.ended) {
      await cycle(ctx, session, recipes, bounds.acquireTimeoutMs);
    }
    if (client.ended) {
      ctx.watchdog.forget(session);
      await ctx.tracker.track(session, 'close', client.close(), { boundMs: bounds.requestMs });
    }
  }
}

async function cycle(ctx: SlotContext, session: string, recipes: Recipes, acquireTimeoutMs: number): Promise<void> {
  const { prng, tracker, layout } = ctx;
  const choice = choose(prng, layout);
  const holdMs = prng.range(10, 150);
  const steps = prng.range(1, 3);
  const guarded = prng.chance(0.3);
  const options = { timeoutMs: acquireTimeoutMs, signal: ctx.stop };
  const started =
    choice.kind === 'mutex'
      ? (recipes.mutexes.get(choice.path) as InterProcessMutex).acquire(options)
      : choice.kind === 'read'
        ? recipes.rw.readLock.acquire(options)
        : choice.kind === 'write'
          ? recipes.rw.writeLock.acquire(options)
          : recipes.semaphore.acquireOne(options);
  let lease: Lease;
  try {
    lease = await tracker.track(session, `acquire ${choice.kind}`, started.then(acquiredOrTimeout), { boundMs: acquireTimeoutMs + 2 * ctx.sessionTimeoutMs });
  } catch {
    // Counted by the tracker. Back off a little so a slot whose session is gone does not spin.
    await pause(prng.range(20, 200));
    return;
  }
  try {
    const kind: HolderKind = choice.kind === 'semaphore' ? 'lease' : choice.kind === 'read' ? 'read' : 'write';
    // A lease whose lock-lost signal has already fired is not entered with: holding can no longer be trusted.
    if (lease.signal.aborted) {
      ctx.resource.figures.lostBeforeEntry++;
      return;
    }
    const id = ctx.resource.enter(choice.path, kind, lease.fencingToken, session);
    if (id === undefined) return;
    try {
      for (let step = 0; step < steps; step++) {
        if (!(await sleepUnlessLost(holdMs / steps, lease.signal))) break;
        if (!ctx.resource.write(id)) break;
        if (guarded && step === 0 && kind === 'write') {
          const write = lease.guardedMulti([Op.setData(layout.dataNodeOf(choice.path), String(lease.fencingToken))]);
          const ok = await untilLost(tracker.track(session, 'guarded write', write), lease.signal);
          if (!ok) break;
        }
      }
    } finally {
      ctx.resource.exit(id);
    }
  } finally {
    try {
      await tracker.track(session, 'release', lease.release(), { boundMs: boundsFor(ctx.sessionTimeoutMs).leaveMs });
    } catch {
      // Counted by the tracker.
    }
  }
}

function choose(prng: Prng, layout: LockLayout): Choice {
  const roll = prng.float();
  if (roll < 0.4) return { kind: 'mutex', path: prng.pick(layout.mutexes) };
  if (roll < 0.6) return { kind: 'read', path: layout.readWrite };
  if (roll < 0.75) return { kind: 'write', path: layout.readWrite };
  return { kind: 'semaphore', path: layout.semaphore };
}

/** A timed-out acquire counts as a TIMEOUT failure in the table. */
function acquiredOrTimeout(result: Lease | NotAcquired): Lease {
  if (!result.acquired) throw new ZooKeeperError('TIMEOUT', 'TIMEOUT (acquire): not acquired within the timeout', { op: 'acquire' });
  return result;
}

/** Sleeps `ms`; false as soon as the lock-lost signal fires. */
function sleepUnlessLost(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Waits for `work` unless the lock is lost first; false when it failed or the lock was lost. */
function untilLost(work: Promise<unknown>, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve(true);
      },
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve(false);
      },
    );
  });
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
