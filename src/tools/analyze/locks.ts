/**
 * Lock directories, reconstructed from the nodes the capture shows being created, listed and deleted.
 *
 * A contender holds the lock from the moment its owner learns it holds by the lock's rule (lowest sequence for a
 * mutex; readers ahead of the first writer for a read/write lock): a getChildren reply that shows it holding, or,
 * when no such listing follows, the NodeDeleted (or NONODE) of the last node ahead of it (a waiter that knew every node ahead of
 * it needs no new listing). It stops holding when its node is deleted (the delete request's time: the server cannot have
 * removed it earlier), when its session is closed or expires, or, for a node that vanished without its owner
 * deleting it, when its owner can have learned so (its connection closed or it listed the directory again).
 * Two holders whose intervals overlap where the rule allows one is a violation: both clients believed they
 * held the lock at once. A LeaderLatch directory is tracked the same way (the lowest sequence leads); leaders.ts
 * turns its holders into leaders.
 */

import { BoundedList } from './bounded-list.js';
import { latencySummary, msHistogram, roundMs } from '../shared/latency.js';
import { holdersByRule, recogniseLockName, recogniseLockNode, type LockMode } from './lock-names.js';
import type { LockHolder, LockKind, LockReport, LockViolation, LockWait } from './report.js';

/** The owner of a node created before the capture began. */
export const UNKNOWN_SESSION = '(before capture)';

interface Contender {
  path: string;
  name: string;
  session: string;
  mode: LockMode;
  seq: number;
  createdUs: number;
  /** The create's zxid: a listing older than this cannot show the node. */
  zxid: bigint;
  /** The owner's getChildren reply showed it holding. */
  acquiredUs: number | undefined;
  /**
   * The owner heard the NodeDeleted of the last node ahead of it. A waiter that knew every node ahead of it (zkwire's)
   * holds from then on; one that lists the directory again first (Curator's, kazoo's) learns it only from that
   * listing, which then sets acquiredUs and wins.
   */
  heardUs: number | undefined;
  /** It first held by the rule, whether or not its owner saw that. */
  ruleFirstUs: number | undefined;
  endUs: number | undefined;
  endHow: string | undefined;
  /** Gone from a listing while its owner had not deleted it and could not yet know. */
  vanishedUs: number | undefined;
  /** Set once the owner's session ended (closed or expired). */
  sessionEndUs: number | undefined;
  /** The owner listed the directory or watched a predecessor after creating it. */
  tracked: boolean;
}

interface LockDir {
  dir: string;
  recipe: string;
  kind: LockKind;
  live: Map<string, Contender>;
  /**
   * The live contenders in sequence order (ties in arrival order), kept sorted as they come and go: sorting the
   * whole directory on every create made a long capture of a busy lock quadratic.
   */
  ordered: Contender[];
  /** Names of contenders that have ended, so a late listing does not bring them back. */
  ended: Set<string>;
  all: BoundedList<Contender>;
  waits: LockWait[];
  orphans: { node: string; session: string; why: string }[];
}

/** What the lock tracker needs to know about sessions. */
export interface SessionView {
  connected(session: string): boolean;
  ended(session: string): boolean;
}

const MAX_CONTENDERS_KEPT = 5000;
const MAX_WAITS = 5000;
/** Ended contender names remembered per directory (the oldest are forgotten first). */
const MAX_ENDED_NAMES = 10_000;

export class LockTracker {
  readonly #sessions: SessionView;
  readonly #ms: (us: number) => number;
  readonly #dirs = new Map<string, LockDir>();
  /** Live contender by full path, for deletes and watches. */
  readonly #byPath = new Map<string, { dir: LockDir; c: Contender }>();

  constructor(
    ms: (us: number) => number,
    sessions: SessionView,
  ) {
    this.#sessions = sessions;
    this.#ms = ms;}

  /** A create of `path` by `session` succeeded; `zxid` is the create's transaction id (from its reply). */
  created(path: string, session: string, atUs: number, zxid: bigint): void {
    const n = recogniseLockNode(path);
    if (n === undefined) return;
    const d = this.#dir(n.dir, n.recipe, n.kind);
    const known = d.live.get(n.name);
    if (known !== undefined) {
      // Another session's listing showed the node before its create reply reached us (replies on different
      // connections race each other): now we know whose it is.
      if (known.session === UNKNOWN_SESSION) {
        known.session = session;
        if (zxid < known.zxid) known.zxid = zxid;
      }
      return;
    }
    const c: Contender = {
      path,
      name: n.name,
      session,
      mode: n.mode,
      seq: n.seq,
      createdUs: atUs,
      zxid,
      acquiredUs: undefined,
      heardUs: undefined,
      ruleFirstUs: undefined,
      endUs: undefined,
      endHow: undefined,
      vanishedUs: undefined,
      sessionEndUs: undefined,
      tracked: false,
    };
    d.live.set(n.name, c);
    insertOrdered(d.ordered, c);
    d.all.push(c);
    this.#byPath.set(path, { dir: d, c });
    this.#recompute(d, atUs);
  }

  /**
   * A delete of `path` by `session` succeeded; `requestUs` is when it was asked for. Deleted by its owner, the
   * node is released; deleted by anyone else, its owner has not let go and may still believe it holds.
   */
  deleted(path: string, session: string, requestUs: number): void {
    const hit = this.#byPath.get(path);
    if (hit === undefined) return;
    if (hit.c.session === session || hit.c.session === UNKNOWN_SESSION) this.#end(hit.dir, hit.c, requestUs, 'released (node deleted)');
    else this.#vanished(hit.dir, hit.c, requestUs);
    this.#recompute(hit.dir, requestUs);
  }

  /**
   * A getChildren/getChildren2 reply listed `dir` for `session`. `zxid` (the reply header's) says how recent the
   * listing is: replies on different connections may reach the capture in another order than the server made them.
   */
  listed(dirPath: string, children: readonly string[], session: string, atUs: number, zxid: bigint): void {
    let d = this.#dirs.get(dirPath);
    const names = new Set(children);
    // Contenders created before the capture began: known only from listings.
    for (const name of children) {
      if (d?.live.has(name) === true) continue;
      const n = recogniseLockName(dirPath, name);
      if (n === undefined) continue;
      if (d?.ended.has(name) === true) continue;
      // Its create zxid is unknown; it is at most this listing's, so older listings cannot prove it gone.
      this.created(`${n.dir === '/' ? '' : n.dir}/${name}`, UNKNOWN_SESSION, atUs, zxid);
      d = this.#dirs.get(dirPath);
    }
    if (d === undefined) return;
    for (const c of [...d.live.values()]) {
      if (names.has(c.name)) {
        if (c.sessionEndUs !== undefined && atUs > c.sessionEndUs) {
          d.orphans.push({ node: c.path, session: c.session, why: 'still listed after its session ended' });
          c.sessionEndUs = undefined; // report once
        }
        continue;
      }
      // Absent from a listing made before the node was created proves nothing.
      if (c.vanishedUs === undefined && zxid >= c.zxid) this.#vanished(d, c, atUs);
    }
    // The owner learns it lost a node that vanished.
    for (const c of d.live.values()) {
      if (c.session === session && c.vanishedUs !== undefined && !names.has(c.name)) this.#end(d, c, atUs, 'lost: its node vanished while it held');
    }
    for (const c of d.live.values()) if (c.session === session) c.tracked = true;
    this.#recompute(d, atUs);
    // Who sees itself holding in this listing (by the rule applied to the listing itself).
    const ordered = d.ordered.filter((c) => names.has(c.name));
    for (const i of holdersByRule(d.kind, ordered)) {
      const c = ordered[i]!;
      if (c.session === session && c.acquiredUs === undefined) c.acquiredUs = atUs;
    }
  }

  /**
   * `session` learned that contender `path` is gone: its NodeDeleted notification, or a NONODE answer to the read
   * that was to watch it. A waiter that knew every node ahead of it holds then, with no new listing, so this is when
   * it learns it holds if its own node now holds by the rule. The deleted node is left out even if its delete reply
   * is not in yet (replies and notifications on different connections race each other in a capture).
   */
  gone(path: string, session: string, atUs: number): void {
    const n = recogniseLockNode(path);
    const d = n === undefined ? undefined : this.#dirs.get(n.dir);
    if (d === undefined) return;
    // The notification proves the node is gone, as a listing without it would (the server may have removed it
    // with its expired session, which a capture may never show).
    const hit = this.#byPath.get(path);
    if (hit !== undefined && hit.c.vanishedUs === undefined) this.#vanished(d, hit.c, atUs);
    const prefix = holdingPrefix(d, path);
    for (const i of holdersByRule(d.kind, prefix)) {
      const c = prefix[i]!;
      if (c.session === session && c.acquiredUs === undefined) c.heardUs ??= atUs;
    }
  }

  /** `session` set a watch on `path` (exists/getData): if it is a contender, the session's node waits for it. */
  watched(path: string, session: string, atUs: number): void {
    const hit = this.#byPath.get(path);
    if (hit === undefined) return;
    const mine = [...hit.dir.live.values()].filter((c) => c.session === session && c.path !== path);
    for (const w of mine) {
      w.tracked = true;
      if (hit.dir.waits.length < MAX_WAITS) hit.dir.waits.push({ waiter: w.path, waiterSession: session, watched: path, atMs: this.#ms(atUs) });
    }
  }

  /** The session was closed or expired: the server removes its ephemeral contenders. */
  sessionEnded(session: string, atUs: number, how: string): void {
    for (const d of this.#dirs.values()) {
      let changed = false;
      for (const c of [...d.live.values()]) {
        if (c.session !== session) continue;
        c.sessionEndUs = atUs;
        this.#end(d, c, atUs, how);
        changed = true;
      }
      if (changed) this.#recompute(d, atUs);
    }
  }

  /** One of the session's connections closed: a node that vanished meanwhile is lost to it from now on. */
  connectionClosed(session: string, atUs: number): void {
    for (const d of this.#dirs.values()) {
      for (const c of [...d.live.values()]) {
        if (c.session === session && c.vanishedUs !== undefined) this.#end(d, c, atUs, 'lost: its node vanished while it held');
      }
    }
  }

  /** The report; `endUs` is the end of the capture (where holds still open are cut for overlaps). */
  report(endUs: number): LockReport[] {
    return [...this.#dirs.values()].map((d) => this.#reportDir(d, this.#ms(endUs)));
  }

  #reportDir(d: LockDir, endMs: number): LockReport {
    const holders: (LockHolder & { c: Contender })[] = [];
    for (const c of d.all.items) {
      const from = c.acquiredUs ?? c.heardUs ?? (c.session === UNKNOWN_SESSION ? c.ruleFirstUs : undefined);
      if (from === undefined || (c.endUs !== undefined && c.endUs < from)) continue;
      holders.push({
        c,
        node: c.path,
        session: c.session,
        mode: c.mode,
        fromMs: this.#ms(from),
        toMs: c.endUs === undefined ? null : this.#ms(c.endUs),
        how: c.endHow ?? null,
        handoffMs: null,
      });
    }
    holders.sort((a, b) => a.fromMs - b.fromMs);
    const violations: LockViolation[] = [];
    const handoff = msHistogram();
    const exclusive = (m: string): boolean => m !== 'read' && m !== 'lease';
    for (let i = 0; i < holders.length; i++) {
      const b = holders[i]!;
      let prev: (typeof holders)[number] | undefined;
      for (let j = 0; j < i; j++) {
        const a = holders[j]!;
        // A hold still open at the end of the capture goes on past it.
        const aTo = a.toMs ?? Infinity;
        const bTo = b.toMs ?? Infinity;
        if (d.kind !== 'semaphore-leases' && (exclusive(a.mode) || exclusive(b.mode)) && b.fromMs < aTo && a.fromMs < bTo) {
          violations.push({
            a: { node: a.node, session: a.session, mode: a.mode },
            b: { node: b.node, session: b.session, mode: b.mode },
            fromMs: b.fromMs,
            toMs: Math.min(aTo, bTo, Math.max(endMs, b.fromMs)),
          });
        }
        if (a.toMs !== null && a.toMs <= b.fromMs && (prev === undefined || a.toMs > prev.toMs!)) prev = a;
      }
      // A hand-off: b was already queued when the previous holder let go.
      if (prev !== undefined && exclusive(b.mode) && this.#ms(b.c.createdUs) <= prev.toMs!) {
        b.handoffMs = roundMs(b.fromMs - prev.toMs!);
        handoff.record(b.handoffMs);
      }
    }
    const orphans = [...d.orphans];
    const liveBySession = new Map<string, number>();
    for (const c of d.live.values()) liveBySession.set(c.session, (liveBySession.get(c.session) ?? 0) + 1);
    for (const c of d.live.values()) {
      if (c.session === UNKNOWN_SESSION) continue;
      if (this.#sessions.ended(c.session)) orphans.push({ node: c.path, session: c.session, why: 'its session ended but the node was never seen removed' });
      else if ((liveBySession.get(c.session) ?? 0) > 1) orphans.push({ node: c.path, session: c.session, why: 'its session has another contender in the same lock (a create retried without protection?)' });
      else if (!c.tracked) orphans.push({ node: c.path, session: c.session, why: 'created, then never listed, watched or deleted by its session' });
    }
    return {
      dir: d.dir,
      recipe: d.recipe,
      kind: d.kind,
      contenders: d.all.items.length + d.all.omitted,
      holders: holders.map(({ c: _, ...h }) => h),
      waits: d.waits,
      orphans,
      violations,
      handoffMs: latencySummary(handoff),
    };
  }

  #vanished(d: LockDir, c: Contender, atUs: number): void {
    if (this.#sessions.ended(c.session)) this.#end(d, c, atUs, 'session ended');
    else if (c.session === UNKNOWN_SESSION || !this.#sessions.connected(c.session)) this.#end(d, c, atUs, 'lost while its session was disconnected');
    else {
      // Its owner is connected and has not deleted it, as far as we know yet: it may still believe it holds the
      // lock. It stays findable by path, because the owner's delete reply may simply not have reached us (the
      // listing that lacked the node came on another connection): that reply ends the hold at its request time.
      c.vanishedUs ??= atUs;
    }
  }

  #end(d: LockDir, c: Contender, atUs: number, how: string): void {
    if (c.endUs !== undefined) return;
    c.endUs = atUs;
    c.endHow = how;
    d.live.delete(c.name);
    removeOrdered(d.ordered, c);
    d.ended.add(c.name);
    // Only a listing racing the end can still show the name; keeping every name ever ended grew with the capture.
    if (d.ended.size > MAX_ENDED_NAMES) d.ended.delete(d.ended.values().next().value!);
    this.#byPath.delete(c.path);
  }

  #recompute(d: LockDir, atUs: number): void {
    const prefix = holdingPrefix(d, undefined);
    for (const i of holdersByRule(d.kind, prefix)) prefix[i]!.ruleFirstUs ??= atUs;
  }

  #dir(path: string, recipe: string, kind: LockKind): LockDir {
    let d = this.#dirs.get(path);
    if (d === undefined) {
      d = { dir: path, recipe, kind, live: new Map(), ordered: [], ended: new Set(), all: new BoundedList(MAX_CONTENDERS_KEPT), waits: [], orphans: [] };
      this.#dirs.set(path, d);
    } else if (kind === 'read-write' && d.kind === 'mutex') {
      // kazoo's write lock nodes look like its plain lock until a reader shows up.
      d.kind = 'read-write';
      d.recipe = recipe;
    }
    return d;
  }
}

/**
 * The contenders that can hold, in sequence order: only a prefix can, up to the first contender that is not a
 * reader (a mutex: the first), except a semaphore's leases. Vanished nodes and the node at `without` are left out.
 */
function holdingPrefix(d: LockDir, without: string | undefined): Contender[] {
  const prefix: Contender[] = [];
  for (const c of d.ordered) {
    if (c.vanishedUs !== undefined || c.path === without) continue;
    prefix.push(c);
    if (d.kind !== 'semaphore-leases' && (d.kind !== 'read-write' || c.mode !== 'read')) break;
  }
  return prefix;
}

/** Where `seq` goes in `ordered`: after every contender with a sequence at or below it (ties keep arrival order). */
function upperBound(ordered: readonly Contender[], seq: number): number {
  let lo = 0;
  let hi = ordered.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ordered[mid]!.seq >>> 0 <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function insertOrdered(ordered: Contender[], c: Contender): void {
  const at = upperBound(ordered, c.seq >>> 0);
  if (at === ordered.length) ordered.push(c);
  else ordered.splice(at, 0, c);
}

function removeOrdered(ordered: Contender[], c: Contender): void {
  // Search back from the end of c's sequence run: c is in it.
  for (let i = upperBound(ordered, c.seq >>> 0) - 1; i >= 0; i--) {
    if (ordered[i] === c) {
      ordered.splice(i, 1);
      return;
    }
  }
}
