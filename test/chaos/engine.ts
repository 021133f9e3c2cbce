/**
 * The chaos run: a 3-member ZooKeeper ensemble on loopback, each member behind its own fault proxy; N session slots
 * (16 by default) whose connect string lists the three proxies, running lock cycles against a fenced resource
 * (workers.ts); LeaderLatch candidates and CuratorCaches (election.ts); GroupMembers on one group (group.ts); a
 * worker in a process of its own (paused-process.ts). One slot of each kind (lock slot s0, candidate e0, cache c0,
 * member m0) reaches the members through links of its own (private-links.ts), so its session alone can be expired.
 * Three seeded fault lanes (faults.ts) run for the given duration. Then everything stops and is checked: nothing
 * left on the server, every promise settled, no session hung, every cache and member as the server has it. Shared
 * by `npm run chaos` (bench/chaos.ts) and the short run in `npm test` (test/chaos/chaos.test.ts).
 */

import { setMaxListeners } from 'node:events';
import { ZooKeeperClient } from '../../src/node.js';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy.js';
import { startEnsemble, type ZkEnsemble } from '../harness/zookeeper.js';
import { ElectionRun } from './election.js';
import { emptyFaultLog, EXPIRY_FAULTS, heal, NETWORK_FAULTS, runFaultLane, SERVER_FAULTS, type FaultTargets } from './faults.js';
import { GroupRun } from './group.js';
import { WorkerProcess } from './paused-process.js';
import { startPrivateLink, type PrivateLink } from './private-links.js';
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
  /** GroupMember slots on one group path (default 3), besides the worker process's member. */
  readonly members?: number;
  /** Pause between expiry-lane episodes (ms); default [2000, 8000]. */
  readonly expiryGapMs?: readonly [number, number];
  /** Progress lines (stderr in the CLI). */
  readonly log?: (line: string) => void;
}

const SEMAPHORE_LEASES = 3;
/** The slots with links of their own: a lock slot, a candidate, a cache, a group member. */
const PRIVATE_LINK_SLOTS = ['s0', 'e0', 'c0', 'm0'] as const;

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const sessions = options.sessions ?? 16;
  const T = options.sessionTimeoutMs ?? 4000;
  const tickTime = options.tickTime ?? 1000;
  const log = options.log ?? (() => undefined);
  const root = new Prng(options.seed);
  const serverPrng = root.fork('server-lane');
  const networkPrng = root.fork('network-lane');
  const expiryPrng = root.fork('expiry-lane');
  const slotPrngs = Array.from({ length: sessions }, (_, i) => root.fork(`slot-${i}`));
  const candidatePrngs = Array.from({ length: options.candidates ?? 3 }, (_, i) => root.fork(`candidate-${i}`));

  log(`starting a 3-member ensemble (tickTime ${tickTime} ms) and a fault proxy per member`);
  const ensemble = await startEnsemble(3, { tickTime });
  const proxies: FaultProxy[] = [];
  const links: PrivateLink[] = [];
  try {
    for (const server of ensemble.servers) proxies.push(await startFaultProxy({ host: server.host, port: server.port }));
    const members = ensemble.servers.map((s) => ({ host: s.host, port: s.port }));
    for (const slot of PRIVATE_LINK_SLOTS) links.push(await startPrivateLink(slot, members));
    return await runOnEnsemble(ensemble, proxies, links, { ...options, sessions, T, tickTime, log }, { serverPrng, networkPrng, expiryPrng, slotPrngs, candidatePrngs });
  } finally {
    await Promise.all([...proxies, ...links.flatMap((l) => l.proxies)].map((p) => p.close()));
    await ensemble.close();
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
  links: readonly PrivateLink[],
  opts: Resolved,
  prngs: { serverPrng: Prng; networkPrng: Prng; expiryPrng: Prng; slotPrngs: Prng[]; candidatePrngs: Prng[] },
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
  // The run's own observers count every watch on the members after the workload closes: they set none of their own
  // (no ensemble tracker, whose watch on /zookeeper/config would be counted as one left behind).
  const direct = (): Promise<ZooKeeperClient> => ZooKeeperClient.connect(ensemble.connectString, { sessionTimeoutMs: 10_000, trackEnsemble: false });
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
  const linkOf = new Map(links.map((l) => [l.name, l]));
  const connectStringOf = (slot: string): string => linkOf.get(slot)?.connectString ?? connectString;
  const onClient = (session: string, client: ZooKeeperClient): void => {
    clients.set(session, client);
    linkOf.get(session.slice(0, session.indexOf('.')))?.use(client);
  };
  const faults = emptyFaultLog();
  const electionPath = `${chaosRoot}/election`;
  const groupPath = `${chaosRoot}/group`;
  const election = new ElectionRun({ connectStringOf, sessionTimeoutMs: T, electionPath, cacheRoot: chaosRoot, tracker, watchdog, stop: stop.signal, onClient });
  const group = new GroupRun({ connectStringOf, sessionTimeoutMs: T, groupPath, tracker, watchdog, onClient });
  const worker = WorkerProcess.start({
    connectString,
    sessionTimeoutMs: T,
    memberId: 'p0',
    groupPath,
    electionPath,
    cacheRoot: chaosRoot,
    mutexPath: layout.mutexes[0] as string,
    locks: resource,
    election: election.resource,
  });
  // The worker process dies with the run, whatever ends it (SIGINT included: see paused-process.ts).
  try {
    group.add(worker.memberView());
    election.addCache('worker process (persistent)', () => worker.cacheImage());
    election.addLeaderProbe(() => worker.leads());
    const targets: FaultTargets = {
      ensemble,
      proxies,
      privateLinks: links,
      process: worker,
      freezing: (slot) => watchdog.freeze(slot),
      sessionTimeoutMs: T,
      elapsed: () => Date.now() - startedAt,
    };

    watchdog.start();
    log(`running ${opts.sessions} sessions for ${opts.durationMs / 1000} s, seed ${opts.seed}, session timeout ${T} ms`);
    const slots = Array.from({ length: opts.sessions }, (_, slot) =>
      runSlot({
        slot,
        connectString: connectStringOf(`s${slot}`),
        sessionTimeoutMs: T,
        layout,
        prng: prngs.slotPrngs[slot] as Prng,
        tracker,
        watchdog,
        resource,
        stop: stop.signal,
        onClient,
      }),
    );
    const candidates = election.runCandidates(prngs.candidatePrngs);
    const caches = election.runCaches(opts.caches ?? 2);
    const memberSlots = group.run(opts.members ?? 3);
    const progress = setInterval(() => {
      const done = [...tracker.ops.entries()].filter(([op]) => op.startsWith('acquire')).reduce((n, [, c]) => n + c.completed, 0);
      const injected = Object.values(faults.injected).reduce((a, b) => a + b, 0);
      log(`${Math.round((Date.now() - startedAt) / 1000)} s: ${done} locks taken, ${injected} faults, ${resource.figures.exclusionViolations} violations`);
    }, 15_000);
    try {
      await Promise.all([
        runFaultLane(SERVER_FAULTS, targets, prngs.serverPrng, faults, { until, gapMs: opts.serverGapMs ?? [1000, 5000] }),
        runFaultLane(NETWORK_FAULTS, targets, prngs.networkPrng, faults, { until, gapMs: opts.networkGapMs ?? [500, 2500] }),
        runFaultLane(EXPIRY_FAULTS, targets, prngs.expiryPrng, faults, { until, gapMs: opts.expiryGapMs ?? [2000, 8000] }),
      ]);
    } finally {
      clearInterval(progress);
    }
    log('faults over: healing every link and member, then stopping the workers');
    await heal(targets, faults);
    const faultsEndedAt = Date.now();
    stop.abort();
    const [slotsStopped, workerQuiet] = await Promise.all([settlesWithin(Promise.all([...slots, candidates]), 4 * T + 10_000), worker.quiet(4 * T + 10_000)]);

    // With every worker stopped and every lease released, the sessions still open must hold nothing.
    const counter = await direct();
    try {
      // quiescence: nothing writes any more; every cache must come to match the server
      await election.checkCaches(counter, 15_000);
      // and every member must be in the group, seeing it as the server has it
      await group.check(counter, 10_000);
      group.stop();
      const cachesStopped = await settlesWithin(Promise.all([caches, memberSlots]), 2 * T + 5000);
      await worker.close(2 * T + 5000);
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
        slots: opts.sessions + prngs.candidatePrngs.length + (opts.caches ?? 2) + (opts.members ?? 3),
        clientsOpened: clients.size,
        sessionsRenewed: [...clients.values()].reduce((n, c) => n + c.sessionRenewals, 0),
        slotsStopped: slotsStopped && cachesStopped,
        election: election.finish(),
        group: group.figures,
        workerProcess: worker.figures,
        workerQuiet,
        liveLeft,
        afterClose,
        watchesPerMember: perMember,
      });
    } finally {
      watchdog.stop();
      await counter.close();
    }
  } finally {
    worker.kill();
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
