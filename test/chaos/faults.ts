/**
 * The seeded fault schedule. Three lanes run side by side, each one episode at a time:
 *  - the server lane kills (SIGKILL) the leader or a follower, leaves it down a while, restarts it and waits for
 *    the ensemble to have one leader again; never more than one member is down, so a quorum remains;
 *  - the network lane works on the fault proxies in front of the members: pauses one link for less than the
 *    session timeout T (requests stall, the session survives) or for more (its clients must move to another member
 *    or lose the session), partitions every link for more than T (every session expires), loses the reply to a
 *    create or a delete (the server executed it; then either the connection breaks, as it does when a reply really
 *    gets lost, or it stays up and the client must notice the gap itself), resets connections, or writes garbage
 *    into the stream;
 *  - the expiry lane expires one client's session while everyone else runs on: it freezes the links of one client
 *    that has links of its own (private-links.ts) until the server has expired its session, then thaws them; or it
 *    stops (SIGSTOP) the worker process (paused-process.ts) until the server has expired that process's session,
 *    then lets it go on (SIGCONT), as a long GC pause or a paused VM would. "Until the server has expired it" is
 *    read off the members (`dump`), not guessed from the timeout: after a ZooKeeper leader election the new leader
 *    gives every session a fresh timeout, so T alone is not enough.
 * Each lane first tours every one of its kinds in a seeded order, so even a short run injects every kind, then
 * picks kinds at random by weight. Times and targets all come from the lane's seeded generator.
 */

import { OpCode } from '../../src/protocol/opcodes.js';
import type { FaultProxy } from '../harness/fault-proxy.js';
import { sessionKnown } from './leftovers.js';
import type { PrivateLink } from './private-links.js';
import type { ZkEnsemble } from '../harness/zookeeper.js';
import type { Prng } from '../harness/prng.js';

export const SERVER_FAULTS = ['kill-leader', 'kill-follower'] as const;
export const NETWORK_FAULTS = [
  'pause-short',
  'pause-long',
  'partition-all',
  'lost-create-reply',
  'lost-delete-reply',
  'reset',
  'garbage',
] as const;
export const EXPIRY_FAULTS = ['freeze-one-client', 'pause-process'] as const;
export type FaultKind = (typeof SERVER_FAULTS)[number] | (typeof NETWORK_FAULTS)[number] | (typeof EXPIRY_FAULTS)[number];
export const ALL_FAULTS: readonly FaultKind[] = [...SERVER_FAULTS, ...NETWORK_FAULTS, ...EXPIRY_FAULTS];

const WEIGHTS: Record<FaultKind, number> = {
  'kill-leader': 1,
  'kill-follower': 1,
  'pause-short': 3,
  'pause-long': 2,
  'partition-all': 1,
  'lost-create-reply': 3,
  'lost-delete-reply': 3,
  reset: 2,
  garbage: 1,
  'freeze-one-client': 2,
  'pause-process': 1,
};

const CREATE_OPCODES: ReadonlySet<number> = new Set([OpCode.create, OpCode.create2, OpCode.createContainer]);
/** How long a lost-reply episode waits for a matching reply to come by before giving up on this one. */
const LOST_REPLY_WAIT_MS = 3000;

export interface FaultEvent {
  /** Seconds since the run started. */
  readonly at: number;
  readonly kind: FaultKind;
  readonly detail: string;
}

export interface FaultLog {
  readonly injected: Record<FaultKind, number>;
  readonly timeline: FaultEvent[];
  /** Trouble with the harness itself (a member that would not restart); not a client failure. */
  readonly errors: string[];
}

/** The worker in a process of its own, as the expiry lane sees it (paused-process.ts). */
export interface PausableProcess {
  /** Its client's current session (0x…), or undefined while it has none established. */
  session(): string | undefined;
  stop(): void;
  resume(): void;
}

export interface FaultTargets {
  readonly ensemble: ZkEnsemble;
  /** proxies[i] fronts ensemble member i. */
  readonly proxies: readonly FaultProxy[];
  /** Clients with links of their own (their own proxy in front of each member). */
  readonly privateLinks: readonly PrivateLink[];
  /** The worker process, when the run has one. */
  readonly process: PausableProcess | undefined;
  /** A slot's links are frozen from now on: the watchdog leaves it alone until the returned thaw is called. */
  readonly freezing: (slot: string) => () => void;
  readonly sessionTimeoutMs: number;
  /** ms since the run started, for the timeline. */
  readonly elapsed: () => number;
}

export interface LaneOptions {
  /** No new episode starts after this (Date.now() time); the one under way finishes. */
  readonly until: number;
  /** Pause between episodes, ms. */
  readonly gapMs: readonly [number, number];
}

export function emptyFaultLog(): FaultLog {
  const injected = Object.fromEntries(ALL_FAULTS.map((k) => [k, 0])) as Record<FaultKind, number>;
  return { injected, timeline: [], errors: [] };
}

export async function runFaultLane(
  kinds: readonly FaultKind[],
  targets: FaultTargets,
  prng: Prng,
  log: FaultLog,
  options: LaneOptions,
): Promise<void> {
  const tour = prng.shuffled(kinds);
  while (Date.now() < options.until) {
    const fromTour = tour.length > 0;
    const kind = tour.shift() ?? weightedPick(kinds, prng);
    try {
      // A tour episode that found nothing to act on goes to the end of the tour, so every kind does happen.
      if (!(await runEpisode(kind, targets, prng, log)) && fromTour) tour.push(kind);
    } catch (err) {
      log.errors.push(`${kind} at ${(targets.elapsed() / 1000).toFixed(1)} s: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
      await heal(targets, log);
    }
    await sleep(prng.range(options.gapMs[0], options.gapMs[1]));
  }
}

/** Every proxy forwarding again and every member running, with one leader. */
export async function heal(targets: FaultTargets, log: FaultLog): Promise<void> {
  for (const proxy of allProxies(targets)) proxy.pass();
  targets.process?.resume();
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      for (const [i, server] of targets.ensemble.servers.entries()) {
        if (server.pid === undefined) await targets.ensemble.restart(i);
      }
      await targets.ensemble.leaderIndex();
      return;
    } catch (err) {
      log.errors.push(`heal attempt ${attempt}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    }
  }
}

/** Runs one episode; false when it found nothing to act on (no matching reply came by). */
async function runEpisode(kind: FaultKind, targets: FaultTargets, prng: Prng, log: FaultLog): Promise<boolean> {
  const T = targets.sessionTimeoutMs;
  const { ensemble, proxies } = targets;
  const record = (detail: string): void => {
    log.injected[kind]++;
    log.timeline.push({ at: Math.round(targets.elapsed() / 100) / 10, kind, detail });
  };
  switch (kind) {
    case 'kill-leader':
    case 'kill-follower': {
      const leader = await ensemble.leaderIndex();
      const others = ensemble.servers.map((_, i) => i).filter((i) => i !== leader);
      const victim = kind === 'kill-leader' ? leader : prng.pick(others);
      const downMs = prng.range(500, 3000);
      await ensemble.kill(victim);
      record(`member #${victim} killed, down ${downMs} ms`);
      await sleep(downMs);
      await ensemble.restart(victim);
      await ensemble.leaderIndex();
      return true;
    }
    case 'pause-short':
    case 'pause-long': {
      const i = prng.range(0, proxies.length - 1);
      const ms = kind === 'pause-short' ? prng.range(Math.round(T * 0.25), Math.round(T * 0.85)) : prng.range(Math.round(T * 1.25), T * 2);
      proxyAt(proxies, i).pause();
      record(`link to member #${i} paused ${ms} ms (T = ${T} ms)`);
      await sleep(ms);
      proxyAt(proxies, i).pass();
      return true;
    }
    case 'partition-all': {
      const ms = prng.range(Math.round(T * 1.25), Math.round(T * 1.75));
      const every = allProxies(targets);
      for (const proxy of every) proxy.pause();
      record(`every link paused ${ms} ms (T = ${T} ms)`);
      await sleep(ms);
      for (const proxy of every) proxy.pass();
      return true;
    }
    case 'freeze-one-client': {
      const ready = targets.privateLinks.filter((l) => l.session() !== undefined);
      if (ready.length === 0) return false;
      const link = prng.pick(ready);
      const session = link.session() as string;
      const thawed = targets.freezing(link.name);
      for (const proxy of link.proxies) proxy.pause();
      const started = Date.now();
      const gone = await untilExpiredOnServer(targets, session);
      for (const proxy of link.proxies) proxy.pass();
      thawed();
      record(`${link.name}'s own links frozen ${Date.now() - started} ms: session ${session} ${gone ? 'expired by the server' : 'still known to the server at the bound'} (T = ${T} ms)`);
      return true;
    }
    case 'pause-process': {
      const child = targets.process;
      const session = child?.session();
      if (child === undefined || session === undefined) return false;
      child.stop();
      const started = Date.now();
      const gone = await untilExpiredOnServer(targets, session);
      child.resume();
      record(`worker process stopped ${Date.now() - started} ms: session ${session} ${gone ? 'expired by the server' : 'still known to the server at the bound'} (T = ${T} ms)`);
      return true;
    }
    case 'lost-create-reply':
    case 'lost-delete-reply': {
      const matches = (opcode: number | undefined): boolean =>
        opcode !== undefined && (kind === 'lost-create-reply' ? CREATE_OPCODES.has(opcode) : opcode === OpCode.delete);
      // Half the time the connection breaks soon after, as when a reply is really lost; the other half it stays up
      // and the client must notice by itself (the next reply, or a ping answer, overtakes the lost one).
      const thenReset = prng.chance(0.5);
      const cutAfterMs = prng.range(100, 1000);
      // Armed on every link at once, so the first matching reply anywhere is the one lost.
      let hitOn: ((i: number) => void) | undefined;
      const hit = new Promise<number>((resolve) => (hitOn = resolve));
      let armed = true;
      proxies.forEach((proxy, i) =>
        proxy.dropReplies((frame) => {
          if (!armed || !matches(frame.opcode)) return false;
          armed = false;
          hitOn?.(i);
          return true;
        }),
      );
      const i = await Promise.race([hit, sleep(LOST_REPLY_WAIT_MS).then(() => -1)]);
      armed = false;
      for (const proxy of proxies) proxy.dropReplies(() => false);
      if (i < 0) return false;
      record(`reply lost on the link to member #${i}, ${thenReset ? `connections reset ${cutAfterMs} ms later` : 'connection left up'}`);
      await sleep(cutAfterMs);
      if (thenReset) proxyAt(proxies, i).resetAll();
      return true;
    }
    case 'reset': {
      const i = busyProxy(proxies, prng);
      const n = proxyAt(proxies, i).connections();
      proxyAt(proxies, i).resetAll();
      record(`${n} connections to member #${i} reset`);
      return true;
    }
    case 'garbage': {
      const i = busyProxy(proxies, prng);
      // A length prefix no ZooKeeper frame can have (over the limit, or negative), then junk.
      const bytes = new Uint8Array(12);
      for (let b = 0; b < bytes.length; b++) bytes[b] = prng.range(0, 255);
      const negative = prng.chance(0.5);
      new DataView(bytes.buffer).setInt32(0, negative ? -prng.range(1, 1 << 30) : prng.range(0x7000_0000, 0x7fff_ffff));
      const n = proxyAt(proxies, i).connections();
      proxyAt(proxies, i).injectToClient(bytes);
      record(`${bytes.length} garbage bytes (${negative ? 'negative' : 'oversized'} length) to ${n} connections via member #${i}`);
      return true;
    }
  }
}

/** The shared proxies and every client's own. */
function allProxies(targets: FaultTargets): FaultProxy[] {
  return [...targets.proxies, ...targets.privateLinks.flatMap((l) => l.proxies)];
}

/**
 * Waits at least T (the server cannot expire a session sooner), then until no running member knows `session` any
 * more, for at most 4·T in all; true when the server did expire it.
 */
async function untilExpiredOnServer(targets: FaultTargets, session: string): Promise<boolean> {
  const T = targets.sessionTimeoutMs;
  const deadline = Date.now() + 4 * T;
  await sleep(T);
  for (;;) {
    const members = targets.ensemble.servers.filter((s) => s.pid !== undefined).map((s) => ({ host: s.host, port: s.port }));
    if (!(await sessionKnown(members, session))) return true;
    if (Date.now() > deadline) return false;
    await sleep(250);
  }
}

/** A proxy with client connections on it if there is one (faults on an idle link prove nothing). */
function busyProxy(proxies: readonly FaultProxy[], prng: Prng): number {
  const busy = proxies.map((p, i) => (p.connections() > 0 ? i : -1)).filter((i) => i >= 0);
  return busy.length > 0 ? prng.pick(busy) : prng.range(0, proxies.length - 1);
}

function proxyAt(proxies: readonly FaultProxy[], i: number): FaultProxy {
  const proxy = proxies[i];
  if (proxy === undefined) throw new Error(`no proxy #${i}`);
  return proxy;
}

function weightedPick(kinds: readonly FaultKind[], prng: Prng): FaultKind {
  const total = kinds.reduce((sum, k) => sum + WEIGHTS[k], 0);
  let roll = prng.float() * total;
  for (const kind of kinds) {
    roll -= WEIGHTS[kind];
    if (roll < 0) return kind;
  }
  return kinds[kinds.length - 1] as FaultKind;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
