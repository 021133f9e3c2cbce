/**
 * Watches: each one set (by getData/exists/getChildren with the watch flag, or addWatch) is linked to the
 * notification that fired it, with the set → fire latency. One-shot watches disarm when they fire; persistent
 * ones stay. Also finds the watches a session had armed when it reconnected but did not re-register with
 * setWatches/setWatches2 on the new connection, and herds (one change that notified many sessions at once).
 */

import { EventType, eventTypeName } from '../../protocol/index.js';
import { BoundedList } from './bounded-list.js';
import { latencySummary, msHistogram, roundMs } from '../shared/latency.js';
import type { Herd, LostWatch, WatchesReport, WatchKind, WatchReport } from './report.js';

interface Armed {
  report: WatchReport;
  setUs: number;
  /** Arming order within the session (the order reconnect checks report lost watches in). */
  seq: number;
  /** Later sets of the same watch while it was armed that made it into the report's list: they share its fate. */
  also: WatchReport[] | undefined;
}

/**
 * One session's armed watches, indexed by path: a notification names one path, and scanning every watch a busy
 * session holds on each notification made the analysis quadratic. Persistent-recursive watches fire for paths
 * under theirs, so they are kept apart and scanned (a session has few).
 */
class ArmedSet {
  readonly byPath = new Map<string, Armed[]>();
  readonly recursive: Armed[] = [];
  #next = 0;

  add(report: WatchReport, setUs: number): void {
    const a: Armed = { report, setUs, seq: this.#next++, also: undefined };
    if (report.kind === 'persistent-recursive') {
      this.recursive.push(a);
      return;
    }
    const list = this.byPath.get(report.path);
    if (list === undefined) this.byPath.set(report.path, [a]);
    else list.push(a);
  }

  /** The armed watch of this kind on this path that has not fired yet, if any. */
  find(kind: WatchKind, path: string): Armed | undefined {
    const list = kind === 'persistent-recursive' ? this.recursive : this.byPath.get(path);
    if (list === undefined) return undefined;
    for (const a of list) if (a.report.kind === kind && a.report.path === path && a.report.fired === null) return a;
    return undefined;
  }

  /** Every armed watch, in arming order. */
  all(): Armed[] {
    const out: Armed[] = [...this.recursive];
    for (const list of this.byPath.values()) for (const a of list) out.push(a);
    return out.sort((a, b) => a.seq - b.seq);
  }

  /** Keeps only the watches `keep` says yes to. */
  retain(keep: (a: Armed) => boolean): void {
    for (const [path, list] of this.byPath) {
      const kept = list.filter(keep);
      if (kept.length === 0) this.byPath.delete(path);
      else if (kept.length !== list.length) this.byPath.set(path, kept);
    }
    const r = this.recursive.filter(keep);
    this.recursive.length = 0;
    this.recursive.push(...r);
  }

  /** Keeps only the watches on `path` that `keep` says yes to (recursive ones are on their root path too). */
  retainOn(path: string, keep: (a: Armed) => boolean): void {
    const list = this.byPath.get(path);
    if (list !== undefined) {
      const kept = list.filter(keep);
      if (kept.length === 0) this.byPath.delete(path);
      else if (kept.length !== list.length) this.byPath.set(path, kept);
    }
    if (this.recursive.some((a) => a.report.path === path)) {
      const r = this.recursive.filter((a) => a.report.path !== path || keep(a));
      this.recursive.length = 0;
      this.recursive.push(...r);
    }
  }
}

/** Notifications of the same change reach the sessions within this window of each other. */
export const HERD_WINDOW_MS = 1000;
/** A change that notified at least this many sessions is reported as a herd. */
export const HERD_MIN_SESSIONS = 3;

interface HerdGroup {
  path: string;
  type: number;
  firstUs: number;
  lastUs: number;
  sessions: Set<string>;
}

interface Reconnect {
  session: string;
  conn: string;
  atUs: number;
  armed: Armed[];
  restored: Set<string>;
}

const MAX_LIST = 5000;
const MAX_OPEN_HERD_GROUPS = 1000;

const key = (kind: WatchKind, path: string): string => `${kind}\u0000${path}`;

/** Which watch kinds an event type fires on the event's own path. */
function firesOnPath(type: number): readonly WatchKind[] {
  switch (type) {
    case EventType.NodeCreated:
    case EventType.NodeDataChanged:
      return ['data', 'exists'];
    case EventType.NodeDeleted:
      return ['data', 'exists', 'child'];
    case EventType.NodeChildrenChanged:
      return ['child'];
    default:
      return [];
  }
}

function drop(a: Armed, why: string): void {
  a.report.dropped ??= why;
  for (const r of a.also ?? []) r.dropped ??= why;
}

function isUnder(path: string, root: string): boolean {
  return root === '/' ? path.startsWith('/') : path === root || path.startsWith(`${root}/`);
}

export class WatchTracker {
  readonly #ms: (us: number) => number;
  /** Armed watches per session. */
  readonly #armed = new Map<string, ArmedSet>();
  readonly #list = new BoundedList<WatchReport>(MAX_LIST);
  readonly #lost: LostWatch[] = [];
  readonly #herds: Herd[] = [];
  readonly #groups: HerdGroup[] = [];
  readonly #reconnects = new Map<string, Reconnect>();
  readonly #fireLatency = msHistogram();
  #setCount = 0;
  #firedCount = 0;

  constructor(ms: (us: number) => number) {
    this.#ms = ms;}

  set(session: string, kind: WatchKind, path: string, atUs: number): void {
    this.#setCount++;
    const report: WatchReport = { session, kind, path, setMs: this.#ms(atUs), fired: null, dropped: null };
    const listed = this.#list.push(report);
    let armed = this.#armed.get(session);
    if (armed === undefined) {
      armed = new ArmedSet();
      this.#armed.set(session, armed);
    }
    // Setting a watch that is already armed registers nothing new on the server (it keeps one watch per path,
    // kind and session), and a client polling with watch=true does so on every read: counting each set as another
    // armed watch kept memory growing with the capture.
    const same = armed.find(kind, path);
    if (same === undefined) armed.add(report, atUs);
    else if (listed) (same.also ??= []).push(report);
  }

  /** A notification for `session`: fires and (one-shot) disarms the watches it matches. */
  notified(session: string, type: number, path: string, atUs: number): void {
    this.#herd(session, type, path, atUs);
    const armed = this.#armed.get(session);
    if (armed === undefined) return;
    const onPath = firesOnPath(type);
    const list = armed.byPath.get(path);
    if (list !== undefined) {
      let kept = 0;
      for (const a of list) {
        const { kind } = a.report;
        const hit = onPath.includes(kind) || (kind === 'persistent' && type !== EventType.None);
        // Persistent watches stay armed after firing, except when the node itself goes away and takes it along.
        if (!hit || kind === 'persistent') list[kept++] = a;
        if (hit) this.#fire(a, type, path, atUs);
      }
      if (kept === 0) armed.byPath.delete(path);
      else list.length = kept;
    }
    if (type !== EventType.NodeChildrenChanged && type !== EventType.None) {
      for (const a of armed.recursive) if (isUnder(path, a.report.path)) this.#fire(a, type, path, atUs);
    }
  }

  #fire(a: Armed, type: number, path: string, atUs: number): void {
    if (a.report.fired !== null) return;
    const latencyMs = roundMs((atUs - a.setUs) / 1000);
    const atMs = this.#ms(atUs);
    const event = eventTypeName(type);
    a.report.fired = { atMs, event, path, latencyMs };
    for (const r of a.also ?? []) r.fired = { atMs, event, path, latencyMs: roundMs(atMs - r.setMs) };
    this.#firedCount++;
    this.#fireLatency.record(latencyMs);
  }

  /** The session reconnected on `conn`: remember what it had armed, to check the setWatches that should follow. */
  reconnected(session: string, conn: string, atUs: number): void {
    this.#settleReconnect(session);
    const armed = this.#armed.get(session)?.all() ?? [];
    if (armed.length > 0) this.#reconnects.set(session, { session, conn, atUs, armed, restored: new Set() });
  }

  /** A setWatches/setWatches2 request on a resumed connection lists these watches. */
  restored(session: string, lists: { kind: WatchKind; paths: readonly string[] }[]): void {
    const r = this.#reconnects.get(session);
    if (r === undefined) return;
    for (const { kind, paths } of lists) for (const p of paths) r.restored.add(key(kind, p));
  }

  /** A session closed or expired: its watches are gone with it. */
  sessionEnded(session: string, why: string): void {
    this.#settleReconnect(session);
    for (const a of this.#armed.get(session)?.all() ?? []) drop(a, why);
    this.#armed.delete(session);
  }

  /** A removeWatches succeeded: the session's watches of these kinds on `path` are disarmed. */
  removed(session: string, path: string, kinds: readonly WatchKind[]): void {
    this.#armed.get(session)?.retainOn(path, (a) => {
      if (!kinds.includes(a.report.kind)) return true;
      drop(a, 'removed by the client');
      return false;
    });
  }

  /**
   * The report. `final` settles pending reconnects and herd groups (the capture is over); a live snapshot leaves
   * them open and shows the herds forming so far.
   */
  report(final: boolean): WatchesReport {
    if (final) {
      for (const s of [...this.#reconnects.keys()]) this.#settleReconnect(s);
      for (const g of this.#groups.splice(0)) this.#closeGroup(g);
    }
    let armedAtEnd = 0;
    for (const set of this.#armed.values()) {
      for (const list of set.byPath.values()) for (const a of list) if (a.report.dropped === null) armedAtEnd++;
      for (const a of set.recursive) if (a.report.dropped === null) armedAtEnd++;
    }
    return {
      set: this.#setCount,
      fired: this.#firedCount,
      armedAtEnd,
      list: this.#list.items,
      omitted: this.#list.omitted,
      notRestored: this.#lost,
      herds: final ? this.#herds : [...this.#herds, ...this.#groups.filter((g) => g.sessions.size >= HERD_MIN_SESSIONS).map((g) => this.#herdOf(g))],
      fireLatencyMs: latencySummary(this.#fireLatency),
    };
  }

  #settleReconnect(session: string): void {
    const r = this.#reconnects.get(session);
    if (r === undefined) return;
    this.#reconnects.delete(session);
    const stillArmed = new Set(this.#armed.get(session)?.all() ?? []);
    for (const a of r.armed) {
      // Watches that fired or were re-set since are not lost.
      if (!stillArmed.has(a) || r.restored.has(key(a.report.kind, a.report.path))) continue;
      // Clients file a watch under data or exist watches by whether the node exists now, not by how it was set.
      if ((a.report.kind === 'exists' || a.report.kind === 'data') && (r.restored.has(key('data', a.report.path)) || r.restored.has(key('exists', a.report.path)))) continue;
      if (this.#lost.length < MAX_LIST) this.#lost.push({ session, kind: a.report.kind, path: a.report.path, reconnectMs: this.#ms(r.atUs), conn: r.conn });
      drop(a, 'not re-registered after a reconnect');
    }
    const lostSet = new Set(r.armed.filter((a) => a.report.dropped === 'not re-registered after a reconnect'));
    this.#armed.get(session)?.retain((a) => !lostSet.has(a));
  }

  #herd(session: string, type: number, path: string, atUs: number): void {
    if (type === EventType.None) return;
    // Close groups whose window has passed.
    while (this.#groups.length > 0 && (atUs - this.#groups[0]!.firstUs) / 1000 > HERD_WINDOW_MS) this.#closeGroup(this.#groups.shift()!);
    let g = this.#groups.find((x) => x.path === path && x.type === type && !x.sessions.has(session));
    if (g === undefined) {
      if (this.#groups.length >= MAX_OPEN_HERD_GROUPS) this.#closeGroup(this.#groups.shift()!);
      g = { path, type, firstUs: atUs, lastUs: atUs, sessions: new Set() };
      this.#groups.push(g);
    }
    g.sessions.add(session);
    g.lastUs = atUs;
  }

  #closeGroup(g: HerdGroup): void {
    if (g.sessions.size >= HERD_MIN_SESSIONS && this.#herds.length < MAX_LIST) this.#herds.push(this.#herdOf(g));
  }

  #herdOf(g: HerdGroup): Herd {
    return { path: g.path, event: eventTypeName(g.type), atMs: this.#ms(g.firstUs), sessions: g.sessions.size, spreadMs: roundMs((g.lastUs - g.firstUs) / 1000) };
  }
}
