/**
 * The chaos run: a 3-member ZooKeeper ensemble on loopback, each member behind its own fault proxy; N session slots
 * (16 by default) whose connect string lists the three proxies, running lock cycles against a fenced resource
 * (workers.ts); two seeded fault lanes (faults.ts) for the given duration. Then everything stops and is checked:
 * nothing left on the server, every promise settled, no session hung. Shared by `npm run chaos` (bench/chaos.ts)
 * and the short run in `npm test` (test/chaos/chaos.test.ts).
 */

import { setMaxListeners } from 'node:events';
import { ZooKeeperClient } from '../../src/node.js';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy.js';
import { startEnsemble, type ZkEnsemble } from '../harness/zookeeper.js';
import { ElectionRun } from './election.js';
import { emptyFaultLog, heal, NETWORK_FAULTS, runFaultLane, SERVER_FAULTS, type FaultTargets } from './faults.js';
import { FencedResource } from './fenced-resource.js';
import { lockNodesUnder, watchesBySession, watchTotals, type Member } from './leftovers.js';
import { OpTracker } from './op-tracker.js';
import { Prng } from '../harness/prng.js';
import { buildReport, type ChaosReport } from './report.js';
import { Watchdog } from './watchdog.js';
import { boundsFor, runSlot, type LockLayout } from './workers.js';

export interface ChaosOptions {
  readonly seed: number;
  readonly durationMs: number;
  readonly sessions?: number;
  /** Requested session timeout T; default 4000 ms (with tickTime 1000 the server allows 2000..20000). */
  readonly sessionTimeoutMs?: number;
  readonly tickTime?: number;
  /** Pause between network-lane episodes (ms); default [500, 2500]. */
  readonly networkGapMs?: readonly [number, number];
  /** Pause between server-lane episodes (ms); default [1000, 5000]. */
  readonly serverGapMs?: readonly [number, number];
  /** LeaderLatch candidate slots on one election path (default 3). */
  readonly candidates?: number;
  /** CuratorCache slots on the whole chaos tree, alternately persistent and one-shot watches (default 2). */
  readonly caches?: number;
  /** Progress lines (stderr in the CLI). */
  readonly log?: (line: string) => void;
}

const SEMAPHORE_LEASES = 3;

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const sessions = options.sessions ?? 16;
  const T = options.sessionTimeoutMs ?? 4000;
  const tickTime = options.tickTime ?? 1000;
  const log = options.log ?? (() => undefined);
  const root = new Prng(options.seed);
  const serverPrng = root.fork('server-lane');
  const networkPrng = root.fork('network-lane');
  const slotPrngs = Array.from({ length: sessions }, (_, i) => root.fork(`slot-${i}`));
  const candidatePrngs = Array.from({ length: options.candidates ?? 3 }, (_, i) => root.fork(`candidate-${i}`));

  log(`starting a 3-member ensemble (tickTime ${tickTime} ms) and a fault proxy per member`);
  const ensemble = await startEnsemble(3, { tickTime });
  const proxies: FaultProxy[] = [];
  try {
    for (const server of ensemble.servers) proxies.push(await startFaultProxy({ host: server.host, port: server.port }));
    return await runOnEnsemble(ensemble, proxies, { ...options, sessions, T, tickTime, log }, { serverPrng, networkPrng, slotPrngs, candidatePrngs });
  } finally {
    await Promise.all(proxies.map((p) => p.close()));
    await ensemble.stop();
  }
}

interface Resolved extends ChaosOptions {
  readonly sessions: number;
  readonly T: number;
  readonly tickTime: number;
  readonly log: (line: string) => void;
}

async function runOnEnsemble(
  ensemble: ZkEnsemble,
  proxies: readonly FaultProxy[],
  opts: Resolved,
  prngs: { serverPrng: Prng; networkPrng: Prng; slotPrngs: Prng[]; candidatePrngs: Prng[] },
): Promise<ChaosReport> {
  const { T, log } = opts;
  const bounds = boundsFor(T);
  const members: Member[] = ensemble.servers.map((s) => ({ host: s.host, port: s.port }));
  const chaosRoot = `/chaos-${opts.seed}-${Date.now().toString(36)}`;
  const layout: LockLayout = {
    mutexes: [`${chaosRoot}/mutex-0`, `${chaosRoot}/mutex-1`],
    readWrite: `${chaosRoot}/rw`,
    semaphore: `${chaosRoot}/semaphore`,
    semaphoreLeases: SEMAPHORE_LEASES,
    dataNodeOf: (lock) => `${chaosRoot}/data/${lock.slice(chaosRoot.length + 1)}`,
  };
  const direct = (): Promise<ZooKeeperClient> => ZooKeeperClient.connect(ensemble.connectString, { sessionTimeoutMs: 10_000 });
  {
    const admin = await direct();
    try {
      for (const lock of [...layout.mutexes, layout.readWrite]) await admin.mkdirp(layout.dataNodeOf(lock));
    } finally {
      await admin.close();
    }
  }

  const tracker = new OpTracker();
  const watchdog = new Watchdog(tracker, bounds.disconnectedMs);
  const resource = new FencedResource(new Map([[layout.semaphore, SEMAPHORE_LEASES]]));
  const clients = new Map<string, ZooKeeperClient>();
  const stop = new AbortController();
  // Every slot's pending acquire listens on the one stop signal: many listeners are expected here.
  setMaxListeners(0, stop.signal);
  const startedAt = Date.now();
  const until = startedAt + opts.durationMs;
  const connectString = proxies.map((p) => p.connectString).join(',');
  const faults = emptyFaultLog();
  const targets: FaultTargets = { ensemble, proxies, sessionTimeoutMs: T, elapsed: () => Date.now() - startedAt };

  watchdog.start();
  log(`running ${opts.sessions} sessions for ${opts.durationMs / 1000} s, seed ${opts.seed}, session timeout ${T} ms`);
  const slots = Array.from({ length: opts.sessions }, (_, slot) =>
    runSlot({
      slot,
      connectString,
      sessionTimeoutMs: T,
      layout,
      prng: prngs.slotPrngs[slot] as Prng,
      tracker,
      watchdog,
      resource,
      stop: stop.signal,
      onClient: (session, client) => clients.set(session, client),
    }),
  );
  const election = new ElectionRun({
    connectString,
    sessionTimeoutMs: T,
    electionPath: `${chaosRoot}/election`,
    cacheRoot: chaosRoot,
    tracker,
    watchdog,
    stop: stop.signal,
    onClient: (session, client) => clients.set(session, client),
  });
  const candidates = election.runCandidates(prngs.candidatePrngs);
  const caches = election.runCaches(opts.caches ?? 2);
  const progress = setInterval(() => {
    const done = [...tracker.ops.entries()].filter(([op]) => op.startsWith('acquire')).reduce((n, [, c]) => n + c.completed, 0);
    const injected = Object.values(faults.injected).reduce((a, b) => a + b, 0);
    log(`${Math.round((Date.now() - startedAt) / 1000)} s: ${done} locks taken, ${injected} faults, ${resource.figures.exclusionViolations} violations`);
  }, 15_000);
  try {
    await Promise.all([
      runFaultLane(SERVER_FAULTS, targets, prngs.serverPrng, faults, { until, gapMs: opts.serverGapMs ?? [1000, 5000] }),
      runFaultLane(NETWORK_FAULTS, targets, prngs.networkPrng, faults, { until, gapMs: opts.networkGapMs ?? [500, 2500] }),
    ]);
  } finally {
    clearInterval(progress);
  }
  log('faults over: healing every link and member, then stopping the workers');
  await heal(targets, faults);
  const faultsEndedAt = Date.now();
  stop.abort();
  const slotsStopped = await settlesWithin(Promise.all([...slots, candidates]), 4 * T + 10_000);

  // With every worker stopped and every lease released, the sessions still open must hold nothing.
  const counter = await direct();
  try {
    // quiescence: nothing writes any more; every cache must come to match the server
    await election.checkCaches(counter, 15_000);
    const cachesStopped = await settlesWithin(caches, 2 * T + 5000);
    // The current session of every live client: a renewed client's earlier sessions are gone from the server.
    const live = (): Set<string> => new Set([...clients.values()].filter((c) => !c.ended).map((c) => c.sessionIdHex.toLowerCase()));
    const liveLeft = await pollUntilZero(async () => {
      const liveIds = live();
      const nodes = (await lockNodesUnder(counter, chaosRoot)).filter((n) => liveIds.has(n.owner)).length;
      const byWatch = await watchesBySession(members);
      const watches = [...byWatch.entries()].filter(([id]) => liveIds.has(id)).reduce((n, [, paths]) => n + paths.length, 0);
      return { nodes, watches };
    }, 5000);

    log('closing every client');
    await Promise.all(
      [...clients.entries()].map(([session, client]) =>
        tracker.track(session, 'close', client.close(), { boundMs: bounds.requestMs }).catch(() => undefined),
      ),
    );
    // Sessions a client gave up on locally (4/3·T without a server) may still be alive on the server for up to T;
    // their nodes and watches go when the server expires them, so allow one session timeout and some ticks.
    const afterClose = await pollUntilZero(async () => {
      const nodes = (await lockNodesUnder(counter, chaosRoot)).length;
      const watches = (await watchTotals(members)).reduce((a, b) => a + b, 0);
      return { nodes, watches };
    }, 2 * T + 5000);
    const perMember = await watchTotals(members);
    await drainWithin(tracker, 5000);
    watchdog.check();
    watchdog.stop();
    try {
      await counter.deleteRecursive(chaosRoot);
    } catch {
      // the ensemble is thrown away anyway
    }
    return buildReport({
      options: { seed: opts.seed, durationMs: opts.durationMs, sessions: opts.sessions, sessionTimeoutMs: T, tickTime: opts.tickTime },
      ranForMs: faultsEndedAt - startedAt,
      tracker,
      watchdog: watchdog.figures,
      resource: resource.figures,
      stillInside: resource.insideCount,
      faults,
      slots: opts.sessions + prngs.candidatePrngs.length + (opts.caches ?? 2),
      clientsOpened: clients.size,
      sessionsRenewed: [...clients.values()].reduce((n, c) => n + c.sessionRenewals, 0),
      slotsStopped: slotsStopped && cachesStopped,
      election: election.finish(),
      liveLeft,
      afterClose,
      watchesPerMember: perMember,
    });
  } finally {
    watchdog.stop();
    await counter.close();
  }
}

async function pollUntilZero(measure: () => Promise<{ nodes: number; watches: number }>, withinMs: number): Promise<{ nodes: number; watches: number }> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const figures = await measure();
    if ((figures.nodes === 0 && figures.watches === 0) || Date.now() > deadline) return figures;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Waits (bounded) for every tracked promise to settle. */
async function drainWithin(tracker: OpTracker, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (tracker.pending.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** True if `promise` settles within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
