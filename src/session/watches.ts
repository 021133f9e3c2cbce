/**
 * The client-side registry of watches, keyed by server path (chroot applied).
 *
 * The server keeps one watch per (path, table, connection) and fires it once; the registry fans each
 * notification out to every local watcher it concerns, in the order notifications arrive, which is the
 * server's order. One-shot watchers (data, exist, child) are removed as they fire; persistent and
 * persistent-recursive ones stay until removed. The selection of watchers per event type follows
 * ZooKeeper's ZKWatchManager.materialize.
 */

import type { EventTypeName } from '../protocol/opcodes.js';

export type WatchKind = 'data' | 'exist' | 'child' | 'persistent' | 'persistentRecursive';

/** What happened to the watched node: the protocol's EventType names. */
export type WatchEventType = EventTypeName;

/** The session state a watch event reports. */
export type WatchKeeperState = 'SyncConnected' | 'Expired' | 'AuthFailed' | 'Closed';

/** A watch event: what happened, to which path, in which session state. */
export interface WatchEvent {
  readonly type: WatchEventType;
  readonly state: WatchKeeperState;
  /** The node's path; undefined for session events (type None). */
  readonly path: string | undefined;
  /**
   * The zxid of the transaction that fired the event (ZooKeeper 3.9 and later send it); absent on older servers, on
   * session events (type None) and on the `*WatchRemoved` events a removal makes locally.
   */
  readonly zxid?: bigint;
}

export type Watcher = (event: WatchEvent) => void;

export interface WatchLists {
  readonly data: string[];
  readonly exist: string[];
  readonly child: string[];
  readonly persistent: string[];
  readonly persistentRecursive: string[];
}

const KINDS: readonly WatchKind[] = ['data', 'exist', 'child', 'persistent', 'persistentRecursive'];

/** One `make(kind)` per watch kind, as a record. */
function perKind<T>(make: (kind: WatchKind) => T): Record<WatchKind, T> {
  return Object.fromEntries(KINDS.map((kind) => [kind, make(kind)])) as Record<WatchKind, T>;
}

function parentOf(path: string): string | undefined {
  if (path === '/' || path === '') return undefined;
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

export class WatchRegistry {
  readonly #tables = perKind(() => new Map<string, Set<Watcher>>());

  add(kind: WatchKind, path: string, watcher: Watcher): void {
    const table = this.#tables[kind];
    let set = table.get(path);
    if (set === undefined) table.set(path, (set = new Set()));
    set.add(watcher);
  }

  /** Removes one watcher; true when it was registered. */
  remove(kind: WatchKind, path: string, watcher: Watcher): boolean {
    const table = this.#tables[kind];
    const set = table.get(path);
    if (set === undefined || !set.delete(watcher)) return false;
    if (set.size === 0) table.delete(path);
    return true;
  }

  /** Whether any local watcher of the given kinds remains on `path`. */
  has(path: string, kinds: readonly WatchKind[] = KINDS): boolean {
    return kinds.some((kind) => (this.#tables[kind].get(path)?.size ?? 0) > 0);
  }

  get size(): number {
    let n = 0;
    for (const kind of KINDS) for (const set of this.#tables[kind].values()) n += set.size;
    return n;
  }

  /** Removes and returns every watcher of the given kinds on `path`. */
  take(path: string, kinds: readonly WatchKind[]): Set<Watcher> {
    const out = new Set<Watcher>();
    for (const kind of kinds) {
      const set = this.#tables[kind].get(path);
      if (set === undefined) continue;
      this.#tables[kind].delete(path);
      for (const w of set) out.add(w);
    }
    return out;
  }

  /** The watchers a server notification concerns (one-shot ones removed), in registration order per table. */
  #select(type: WatchEventType, path: string): Set<Watcher> {
    let out: Set<Watcher>;
    switch (type) {
      case 'NodeCreated':
      case 'NodeDataChanged':
        out = this.take(path, ['data', 'exist']);
        break;
      case 'NodeChildrenChanged':
        out = this.take(path, ['child']);
        break;
      case 'NodeDeleted':
        out = this.take(path, ['data', 'exist', 'child']);
        break;
      default:
        out = new Set();
    }
    for (const w of this.#tables.persistent.get(path) ?? []) out.add(w);
    // Recursive watches never see NodeChildrenChanged (the server does not send it to them either).
    if (type !== 'NodeChildrenChanged') {
      for (let p: string | undefined = path; p !== undefined; p = parentOf(p)) {
        for (const w of this.#tables.persistentRecursive.get(p) ?? []) out.add(w);
      }
    }
    return out;
  }

  /** Delivers one server notification. Returns how many watchers received it. */
  dispatch(event: WatchEvent): number {
    if (event.path === undefined) return 0;
    const watchers = this.#select(event.type, event.path);
    for (const w of watchers) deliver(w, event);
    return watchers.size;
  }

  /** Every path with a live watch, per kind: what setWatches(2) must re-arm after a reconnect. */
  lists(): WatchLists {
    return perKind((kind) => [...this.#tables[kind].keys()]);
  }

  /** Gives every live watcher one final session event (expired, closed, auth-failed) and forgets them all. */
  closeAll(state: WatchKeeperState): void {
    const all = new Set<Watcher>();
    for (const kind of KINDS) {
      for (const set of this.#tables[kind].values()) for (const w of set) all.add(w);
      this.#tables[kind].clear();
    }
    const event: WatchEvent = { type: 'None', state, path: undefined };
    for (const w of all) deliver(w, event);
  }
}

function deliver(watcher: Watcher, event: WatchEvent): void {
  try {
    watcher(event);
  } catch {
    // Watchers are the client's own small callbacks; one failing must not starve the others.
  }
}

/** Approximate wire size of a path in a SetWatches list, for the 128 KB batch limit. */
const SET_WATCHES_MAX_CHARS = 128 * 1024;

export interface SetWatchesBatch {
  /** 101 (SetWatches) when the batch has no persistent watches, else 105 (SetWatches2). */
  readonly opcode: 101 | 105;
  readonly lists: WatchLists;
}

/**
 * Splits the watch lists into batches of at most ~128 KB of path text, filling data, exist, child,
 * persistent, then recursive lists in that order (the last path may overshoot, as in the Java client).
 * SetWatches (101) is used for batches without persistent watches so pre-3.6 servers keep working.
 */
export function setWatchesBatches(lists: WatchLists, maxChars = SET_WATCHES_MAX_CHARS): SetWatchesBatch[] {
  const batches: SetWatchesBatch[] = [];
  const queue: [keyof WatchLists, string][] = [];
  for (const kind of KINDS) for (const p of lists[kind]) queue.push([kind, p]);
  let i = 0;
  while (i < queue.length) {
    const batch: WatchLists = perKind(() => []);
    let chars = 0;
    while (i < queue.length && chars < maxChars) {
      const [kind, p] = queue[i++] as [keyof WatchLists, string];
      batch[kind].push(p);
      chars += p.length;
    }
    const persistent = batch.persistent.length > 0 || batch.persistentRecursive.length > 0;
    batches.push({ opcode: persistent ? 105 : 101, lists: batch });
  }
  return batches;
}
