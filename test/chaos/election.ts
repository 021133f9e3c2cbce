/**
 * Leader election and caches in the chaos run. Candidate slots run LeaderLatches on one election path; each
 * leader enters a fenced resource of its own with its fencing token and leaves the moment its leadership signal
 * aborts, so "two leaders at once" is a writer entering while another is inside. Leaders step down now and then
 * (close and rejoin), so leadership changes hands many times. A sampler measures every stretch with no leader while
 * some candidate was connected with its node in place. Cache slots keep CuratorCaches (persistent and one-shot
 * watches) of the whole chaos tree; at quiescence each is compared with a fresh read of the server.
 *
 * Like the lock slots, a slot keeps its client across session expiries (the client renews its session; a latch
 * steps down at LOST and rejoins on the new session, a cache resynchronises); only a client that has ended is
 * replaced.
 */

import { ZooKeeperClient } from '../../src/node.js';
import { CuratorCache } from '../../src/recipes/cache/curator-cache.js';
import { LeaderLatch } from '../../src/recipes/leader/leader-latch.js';
import { cacheTree, serverTree, treeDiff, type TreeImage } from '../recipes/cache-helpers.js';
import { FencedResource } from './fenced-resource.js';
import type { OpTracker } from './op-tracker.js';
import type { Prng } from '../harness/prng.js';
import { trackedClient } from './tracked-client.js';
import type { Watchdog } from './watchdog.js';
import { boundsFor } from './workers.js';

export interface ElectionFigures {
  /** Times a latch became leader (and entered the resource). */
  leaderships: number;
  /** A leader entered the election's resource while another leader was inside. */
  twoLeadersAtOnce: number;
  /** Stretches with no leader, while a candidate was connected, longer than the session timeout (plus allowance). */
  leaderlessPastSessionTimeout: number;
  maxLeaderlessWhileConnectedMs: number;
  /** Caches compared at quiescence, and how many differed from the server. */
  cachesCompared: number;
  cachesDiverged: number;
  notes: string[];
}

export interface ElectionContext {
  /** The connect string of a slot (e0, c1, ...): the shared proxies, or the slot's own links. */
  readonly connectStringOf: (slot: string) => string;
  readonly sessionTimeoutMs: number;
  readonly electionPath: string;
  readonly cacheRoot: string;
  readonly tracker: OpTracker;
  readonly watchdog: Watchdog;
  /** Ends the candidates (with the lock workers). */
  readonly stop: AbortSignal;
  readonly onClient: (session: string, client: ZooKeeperClient) => void;
}

interface Candidate {
  readonly client: ZooKeeperClient;
  readonly latch: LeaderLatch;
}

interface CacheSlot {
  client: ZooKeeperClient;
  cache: CuratorCache;
  readonly session: string;
}

export class ElectionRun {
  readonly figures: ElectionFigures = {
    leaderships: 0,
    twoLeadersAtOnce: 0,
    leaderlessPastSessionTimeout: 0,
    maxLeaderlessWhileConnectedMs: 0,
    cachesCompared: 0,
    cachesDiverged: 0,
    notes: [],
  };
  readonly #resource = new FencedResource(new Map());
  readonly #candidates = new Set<Candidate>();
  readonly #caches = new Set<CacheSlot>();
  /** Caches that live elsewhere (the worker process): a name and what the cache holds now (undefined: no answer). */
  readonly #otherCaches: { name: string; image: () => Promise<TreeImage | undefined> }[] = [];
  /** Ends the cache slots (after the comparison at quiescence). */
  readonly #stopCaches = new AbortController();
  /** Whether a candidate elsewhere (the worker process) leads now. */
  #otherLeads: () => boolean = () => false;
  #sampler: ReturnType<typeof setInterval> | undefined;
  #leaderlessSince: number | undefined;

  constructor(private readonly ctx: ElectionContext) {}

  /** Runs a candidate slot per prng until the run stops; resolves when all have stopped. */
  runCandidates(prngs: readonly Prng[]): Promise<void> {
    this.#sampler = setInterval(() => this.#sample(), 25);
    return Promise.all(prngs.map((prng, i) => this.#candidateSlot(i, prng))).then(() => undefined);
  }

  /** Runs `n` cache slots until checkCaches() is done; resolves when all have stopped. */
  runCaches(n: number): Promise<void> {
    return Promise.all(Array.from({ length: n }, (_, i) => this.#cacheSlot(i))).then(() => undefined);
  }

  /** The election's fenced resource (the worker process's leader enters it too). */
  get resource(): FencedResource {
    return this.#resource;
  }

  /** Counts a candidate that lives elsewhere (the worker process) as a leader in the sampler while `leads()`. */
  addLeaderProbe(leads: () => boolean): void {
    this.#otherLeads = leads;
  }

  /** Compares a cache that lives elsewhere (the worker process's) at quiescence too. */
  addCache(name: string, image: () => Promise<TreeImage | undefined>): void {
    this.#otherCaches.push({ name, image });
  }

  /** Once writes have stopped: every live cache must match a fresh read of the server (given time to catch up). */
  async checkCaches(fresh: ZooKeeperClient, withinMs: number): Promise<void> {
    if (this.#sampler !== undefined) clearInterval(this.#sampler);
    const deadline = Date.now() + withinMs;
    const caches = [
      ...[...this.#caches]
        .filter((slot) => slot.cache.state === 'STARTED' && !slot.client.ended)
        .map((slot) => ({
          name: `${slot.session} (${slot.cache.usesOneShotWatches ? 'one-shot' : 'persistent'})`,
          image: () => Promise.resolve(cacheTree(slot.cache)),
        })),
      ...this.#otherCaches,
    ];
    for (const cache of caches) {
      this.figures.cachesCompared++;
      let diff: string[] = [];
      for (;;) {
        await fresh.sync(this.ctx.cacheRoot).catch(() => undefined);
        const image = await cache.image();
        diff = image === undefined ? ['no answer'] : treeDiff(await serverTree(fresh, this.ctx.cacheRoot), image);
        if (diff.length === 0 || Date.now() > deadline) break;
        await pause(200);
      }
      if (diff.length > 0) {
        this.figures.cachesDiverged++;
        this.figures.notes.push(`cache ${cache.name}: ${diff.slice(0, 3).join('; ')}`);
      }
    }
    this.#stopCaches.abort();
  }

  #sample(): void {
    const now = Date.now();
    const leaders = [...this.#candidates].filter((c) => c.latch.hasLeadership()).length + (this.#otherLeads() ? 1 : 0);
    const waiting = [...this.#candidates].some((c) => c.client.state === 'connected' && c.latch.ourPath !== undefined);
    if (leaders === 0 && waiting) {
      this.#leaderlessSince ??= now;
      const stretch = now - this.#leaderlessSince;
      if (stretch > this.figures.maxLeaderlessWhileConnectedMs) this.figures.maxLeaderlessWhileConnectedMs = stretch;
    } else {
      if (this.#leaderlessSince !== undefined && now - this.#leaderlessSince > this.#leaderlessBound()) {
        this.figures.leaderlessPastSessionTimeout++;
        this.#note(`no leader for ${now - this.#leaderlessSince} ms while a candidate was connected`);
      }
      this.#leaderlessSince = undefined;
    }
  }

  /**
   * How long a connected candidate may wait for a leader without that being a fault of ours: the old leader's
   * session may live a whole session timeout after its last contact before the server removes its node, and when
   * the fault was the ZooKeeper leader's death, the new ZooKeeper leader restarts every session's expiry clock once
   * its election is over (up to about one session timeout more on this ensemble under load); plus the watchdog's
   * allowance for server ticks and scheduling. A stuck election — the bug this catches — lasts until the faults stop.
   */
  #leaderlessBound(): number {
    return 2 * this.ctx.sessionTimeoutMs + boundsFor(this.ctx.sessionTimeoutMs).allowanceMs;
  }

  async #connect(session: string): Promise<ZooKeeperClient | undefined> {
    const slot = session.slice(0, session.indexOf('.'));
    const client = await connectSlot(this.ctx.connectStringOf(slot), this.ctx.sessionTimeoutMs, this.ctx.tracker, session);
    if (client !== undefined) {
      this.ctx.onClient(session, client);
      this.ctx.watchdog.watch(session, client);
    }
    return client;
  }

  async #candidateSlot(slot: number, prng: Prng): Promise<void> {
    const T = this.ctx.sessionTimeoutMs;
    const bounds = boundsFor(T);
    for (let generation = 0; !this.ctx.stop.aborted; generation++) {
      const session = `e${slot}.${generation}`;
      const client = await this.#connect(session);
      if (client === undefined) {
        await pause(prng.range(100, 500));
        continue;
      }
      const tracked = trackedClient(client, this.ctx.tracker, session, bounds.requestMs);
      const over = Promise.race([whenEnded(client), abortedOf(this.ctx.stop)]);
      while (!this.ctx.stop.aborted && !client.ended) {
        const latch = new LeaderLatch(tracked, this.ctx.electionPath, { id: session });
        const candidate: Candidate = { client, latch };
        let steppedDown: () => void = () => undefined;
        const stepDown = new Promise<void>((resolve) => (steppedDown = resolve));
        latch.addListener((event) => {
          if (event.type !== 'isLeader') return;
          this.figures.leaderships++;
          const id = this.#resource.enter(this.ctx.electionPath, 'write', event.fencingToken, session);
          const leave = (): void => {
            if (id !== undefined) this.#resource.exit(id);
          };
          if (event.signal.aborted) leave();
          else event.signal.addEventListener('abort', leave, { once: true });
          // lead for a while, then step down so leadership keeps changing hands
          setTimeout(steppedDown, prng.range(100, 1500));
        });
        this.#candidates.add(candidate);
        latch.start();
        await Promise.race([stepDown, over]);
        this.#candidates.delete(candidate);
        await this.ctx.tracker.track(session, 'latch close', latch.close(), { boundMs: bounds.leaveMs }).catch(() => undefined);
      }
      if (client.ended) {
        this.ctx.watchdog.forget(session);
        await this.ctx.tracker.track(session, 'close', client.close(), { boundMs: bounds.requestMs }).catch(() => undefined);
      }
    }
  }

  async #cacheSlot(slot: number): Promise<void> {
    const T = this.ctx.sessionTimeoutMs;
    const bounds = boundsFor(T);
    const stop = this.#stopCaches.signal;
    for (let generation = 0; !stop.aborted; generation++) {
      const session = `c${slot}.${generation}`;
      const client = await this.#connect(session);
      if (client === undefined) {
        await pause(200);
        continue;
      }
      const tracked = trackedClient(client, this.ctx.tracker, session, bounds.requestMs);
      const cache = new CuratorCache(tracked, this.ctx.cacheRoot, { watchMode: slot % 2 === 0 ? 'persistent' : 'one-shot' });
      const entry: CacheSlot = { client, cache, session };
      this.#caches.add(entry);
      // the initial load may outlast a fault; it is not an operation with a bound of its own
      cache.start().catch(() => undefined);
      await Promise.race([whenEnded(client), abortedOf(stop)]);
      await cache.close().catch(() => undefined);
      this.#caches.delete(entry);
      if (client.ended) {
        this.ctx.watchdog.forget(session);
        await this.ctx.tracker.track(session, 'close', client.close(), { boundMs: bounds.requestMs }).catch(() => undefined);
      }
    }
  }

  /** Figures from the election's resource (must-be-0: two leaders at once). */
  finish(): ElectionFigures {
    if (this.#sampler !== undefined) clearInterval(this.#sampler);
    this.figures.twoLeadersAtOnce = this.#resource.figures.exclusionViolations;
    this.figures.notes.push(...this.#resource.figures.violationNotes);
    return this.figures;
  }

  #note(text: string): void {
    if (this.figures.notes.length < 10) this.figures.notes.push(text);
  }
}

/** A slot's client (tracked as `connect`), or undefined when no session could be had now (an election, a partition). */
export async function connectSlot(connectString: string, T: number, tracker: OpTracker, session: string): Promise<ZooKeeperClient | undefined> {
  try {
    const connecting = ZooKeeperClient.connect(connectString, { sessionTimeoutMs: T, connectTimeoutMs: 2 * T });
    return await tracker.track(session, 'connect', connecting, { boundMs: 2 * T + boundsFor(T).allowanceMs });
  } catch {
    return undefined;
  }
}

/** Resolves once the client has ended for good (closed, auth failed): never on a mere expiry, which it renews. */
export function whenEnded(client: ZooKeeperClient): Promise<void> {
  if (client.ended) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = client.onStateChange(() => {
      if (client.ended) {
        unsubscribe();
        resolve();
      }
    });
  });
}

function abortedOf(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
