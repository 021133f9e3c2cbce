/**
 * The in-memory server's watches, as ZooKeeper's WatchManager keeps them: two tables (data watches, which getData
 * and exists set, and child watches, which getChildren sets), keyed by path, each entry a watcher (a connection)
 * with its modes. A one-shot watch is removed when it fires; persistent ones stay; a persistent recursive one
 * (only in the data table) fires for its path and every path below, except NodeChildrenChanged. One change sends
 * each connection at most one event, however many of its watches match.
 */

import { EventType, WatcherType } from '../../protocol/opcodes.js';
import type { TreeEvent } from './data-tree.js';
import type { VersionBehaviour } from './version.js';

/** Who a watch notifies: a client connection. */
export interface Watcher {
  notify(type: number, path: string): void;
}

/** One-shot, persistent, or persistent recursive. */
export type WatchMode = 'standard' | 'persistent' | 'recursive';

type Table = Map<string, Map<Watcher, Set<WatchMode>>>;

function add(table: Table, path: string, watcher: Watcher, mode: WatchMode): void {
  let entries = table.get(path);
  if (entries === undefined) table.set(path, (entries = new Map()));
  let modes = entries.get(watcher);
  if (modes === undefined) entries.set(watcher, (modes = new Set()));
  modes.add(mode);
}

function remove(table: Table, path: string, watcher: Watcher, keep?: (mode: WatchMode) => boolean): boolean {
  const entries = table.get(path);
  const modes = entries?.get(watcher);
  if (entries === undefined || modes === undefined) return false;
  let removed = false;
  for (const mode of modes) {
    if (keep?.(mode) === true) continue;
    modes.delete(mode);
    removed = true;
  }
  if (modes.size === 0) entries.delete(watcher);
  if (entries.size === 0) table.delete(path);
  return removed;
}

/** The path and its ancestors, nearest first ("/a/b" → "/a/b", "/a", "/"). */
function* selfAndAncestors(path: string): Generator<string> {
  yield path;
  let p = path;
  while (p !== '/') {
    const i = p.lastIndexOf('/');
    p = i <= 0 ? '/' : p.slice(0, i);
    yield p;
  }
}

export class WatchManager {
  readonly #data: Table = new Map();
  readonly #child: Table = new Map();
  #recursive = 0;

  /** A one-shot data watch (getData, exists). */
  addDataWatch(path: string, watcher: Watcher): void {
    add(this.#data, path, watcher, 'standard');
  }

  /** A one-shot child watch (getChildren). */
  addChildWatch(path: string, watcher: Watcher): void {
    add(this.#child, path, watcher, 'standard');
  }

  /** addWatch: a persistent watch goes in both tables, a recursive one in the data table only. */
  addPersistent(path: string, watcher: Watcher, recursive: boolean): void {
    if (recursive) {
      if (!this.#data.get(path)?.get(watcher)?.has('recursive')) this.#recursive++;
      add(this.#data, path, watcher, 'recursive');
    } else {
      add(this.#data, path, watcher, 'persistent');
      add(this.#child, path, watcher, 'persistent');
    }
  }

  /** Fires the watches a committed change set off, in the order of the change's events. */
  trigger(events: readonly TreeEvent[]): void {
    for (const event of events) {
      if (event.type === EventType.NodeChildrenChanged) {
        this.#fire(this.#child, event.type, event.path);
      } else if (event.type === EventType.NodeDeleted) {
        // A deleted node's child watches fire NodeDeleted too, once per connection (DataTree.deleteNode).
        const done = this.#fire(this.#data, event.type, event.path);
        this.#fire(this.#child, event.type, event.path, done);
      } else {
        this.#fire(this.#data, event.type, event.path);
      }
    }
  }

  #fire(table: Table, type: number, path: string, suppress?: Set<Watcher>): Set<Watcher> {
    const watchers = new Set<Watcher>();
    for (const at of this.#recursive > 0 && table === this.#data ? selfAndAncestors(path) : [path]) {
      const entries = table.get(at);
      if (entries === undefined) continue;
      for (const [watcher, modes] of entries) {
        if (modes.has('recursive') && type !== EventType.NodeChildrenChanged) watchers.add(watcher);
        if (at !== path) continue;
        if (modes.has('persistent')) watchers.add(watcher);
        if (modes.has('standard')) {
          watchers.add(watcher);
          remove(table, at, watcher, (mode) => mode !== 'standard');
        }
      }
    }
    for (const watcher of watchers) if (suppress?.has(watcher) !== true) watcher.notify(type, path);
    return watchers;
  }

  /**
   * removeWatches/checkWatches (WatcherType 1–5): whether `watcher` has such a watch on `path`; removes it unless
   * `check`. Children and Data see every mode in their table on 3.8, only one-shot watches on 3.9; Any sees every
   * mode on both; Persistent and PersistentRecursive (3.9's types) only that mode.
   */
  removeWatch(path: string, type: number, watcher: Watcher, check: boolean, behaviour: VersionBehaviour): boolean {
    const has = (table: Table, mode?: WatchMode): boolean => {
      const modes = table.get(path)?.get(watcher);
      return modes !== undefined && (mode === undefined || modes.has(mode));
    };
    const drop = (table: Table, mode?: WatchMode): boolean => {
      if (!has(table, mode)) return false;
      if (check) return true;
      if ((mode === undefined || mode === 'recursive') && table.get(path)?.get(watcher)?.has('recursive')) this.#recursive--;
      return remove(table, path, watcher, mode === undefined ? undefined : (m) => m !== mode);
    };
    const typed: WatchMode | undefined = behaviour.typedRemovalSeesOnlyStandard ? 'standard' : undefined;
    switch (type) {
      case WatcherType.Children: {
        const children = drop(this.#child, typed);
        // 3.8 files a recursive watch under its child watches too, where Children finds (and removes) it; that half
        // never fires (a recursive watch gets no NodeChildrenChanged), so here it lives only in the data table and
        // Children just reports it.
        return children || (typed === undefined && has(this.#data, 'recursive'));
      }
      case WatcherType.Data:
        return drop(this.#data, typed);
      case WatcherType.Any: {
        const children = drop(this.#child);
        const data = drop(this.#data);
        return children || data;
      }
      case WatcherType.Persistent: {
        const data = drop(this.#data, 'persistent');
        const children = drop(this.#child, 'persistent');
        return data || children;
      }
      case WatcherType.PersistentRecursive:
        return drop(this.#data, 'recursive');
      default:
        return false;
    }
  }

  /** Forgets every watch of a connection that closed. */
  removeWatcher(watcher: Watcher): void {
    for (const table of [this.#data, this.#child]) {
      for (const [path, entries] of table) {
        const modes = entries.get(watcher);
        if (modes === undefined) continue;
        if (modes.has('recursive')) this.#recursive--;
        entries.delete(watcher);
        if (entries.size === 0) table.delete(path);
      }
    }
  }
}
