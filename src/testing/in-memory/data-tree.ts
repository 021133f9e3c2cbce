/**
 * The in-memory server's znodes and their Stats, computed as ZooKeeper's DataTree computes them: one zxid per write
 * transaction (czxid/mzxid/pzxid), cversion counting child creations and deletions (the sequence of sequential children counting creations only), version and aversion counting
 * data and ACL changes. It knows no sessions, permissions or watches: every change returns the watch events it
 * causes (for the caller to fire once the transaction commits) and an undo, so a failed multi can be rolled back.
 */

import type { ACL } from '../../protocol/records/acl.js';
import type { Stat } from '../../protocol/records/stat.js';
import { EventType } from '../../protocol/opcodes.js';
import { joinPath, nodeName, parentPath } from '../../protocol/paths.js';

/** A znode. `children` keeps names in creation order. */
export interface ZNode {
  data: Uint8Array | null;
  acl: readonly ACL[];
  /** Stat without the two derived fields (dataLength, numChildren). */
  stat: StoredStat;
  readonly children: Set<string>;
  /**
   * The next sequential child's number: the count of children ever created (from the node's first cversion).
   * Measured on 3.8: cversion counts deletes too, the sequence does not (two creates and two deletes show
   * cversion 4, and the next sequential name ends in 0000000002), so a number is never reused.
   */
  sequence: number;
}

/** The stored part of a Stat; dataLength and numChildren are derived from the node. */
export type StoredStat = Omit<Stat, 'dataLength' | 'numChildren'>;

/** A watch event a change causes: which table it fires in (data or child watches), its type and path. */
export interface TreeEvent {
  readonly type: number;
  readonly path: string;
}

/** A change applied to the tree: the events to fire once it commits, and how to take it back. */
export interface Change {
  readonly events: readonly TreeEvent[];
  readonly undo: () => void;
}

/** ephemeralOwner of a container node (EphemeralType.CONTAINER: Long.MIN_VALUE). */
export const CONTAINER_OWNER = -0x8000000000000000n;
/** The high byte that marks an extended ephemeralOwner (EphemeralType: TTL nodes). */
const EXTENDED_MASK = -0x100000000000000n; // 0xff00000000000000 as a signed long
/** The largest TTL ZooKeeper accepts: the low 40 bits of the owner. */
export const MAX_TTL_MS = 0xffffffffff;

/** The ephemeralOwner that marks a TTL node of `ttl` ms. */
export function ttlOwner(ttl: number): bigint {
  return EXTENDED_MASK | BigInt(ttl);
}

/** The TTL of a TTL node's owner, or undefined for any other owner. */
export function ttlOf(owner: bigint): number | undefined {
  if (owner === CONTAINER_OWNER || (owner & EXTENDED_MASK) !== EXTENDED_MASK) return undefined;
  return Number(owner & 0xffffffffffn);
}

/** The session that owns an ephemeral node, or undefined for persistent, container and TTL nodes. */
export function sessionOwner(owner: bigint): bigint | undefined {
  if (owner === 0n || owner === CONTAINER_OWNER || (owner & EXTENDED_MASK) === EXTENDED_MASK) return undefined;
  return owner;
}

/** The nodes a client can never delete (DataTree.isSpecialPath). */
export const SPECIAL_PATHS: ReadonlySet<string> = new Set(['/', '/zookeeper', '/zookeeper/quota', '/zookeeper/config']);

const WORLD_ALL: readonly ACL[] = [{ perms: 31, id: { scheme: 'world', id: 'anyone' } }];
const WORLD_READ: readonly ACL[] = [{ perms: 1, id: { scheme: 'world', id: 'anyone' } }];

export class DataTree {
  readonly #nodes = new Map<string, ZNode>();
  /** Ephemeral paths per owning session. */
  readonly #ephemerals = new Map<bigint, Set<string>>();
  readonly #containers = new Set<string>();
  readonly #ttls = new Set<string>();

  constructor() {
    // What a fresh standalone 3.8 server shows (measured): "/" at cversion -1, "/zookeeper" at -2, and
    // "/zookeeper/config" readable by anyone, empty, at aversion -1.
    const fresh = (cversion: number, aversion = 0): StoredStat => ({
      czxid: 0n,
      mzxid: 0n,
      ctime: 0n,
      mtime: 0n,
      version: 0,
      cversion,
      aversion,
      ephemeralOwner: 0n,
      pzxid: 0n,
    });
    this.#nodes.set('/', { data: new Uint8Array(0), acl: WORLD_ALL, stat: fresh(-1), children: new Set(['zookeeper']), sequence: -1 });
    this.#nodes.set('/zookeeper', { data: new Uint8Array(0), acl: WORLD_ALL, stat: fresh(-2), children: new Set(['config', 'quota']), sequence: -2 });
    this.#nodes.set('/zookeeper/config', { data: new Uint8Array(0), acl: WORLD_READ, stat: fresh(0, -1), children: new Set(), sequence: 0 });
    this.#nodes.set('/zookeeper/quota', { data: new Uint8Array(0), acl: WORLD_ALL, stat: fresh(0), children: new Set(), sequence: 0 });
  }

  get(path: string): ZNode | undefined {
    return this.#nodes.get(path);
  }

  /** The node's Stat as a client sees it: container and TTL owners read as 0 (DataNode.copyStat). */
  statOf(node: ZNode): Stat {
    const s = node.stat;
    return {
      ...s,
      ephemeralOwner: sessionOwner(s.ephemeralOwner) ?? 0n,
      dataLength: node.data?.length ?? 0,
      numChildren: node.children.size,
    };
  }

  /** Number of nodes below `path` (not counting it). */
  countDescendants(path: string): number {
    const node = this.#nodes.get(path);
    if (node === undefined) return 0;
    let n = 0;
    for (const name of node.children) n += 1 + this.countDescendants(joinPath(path, name));
    return n;
  }

  /** The ephemeral paths `session` owns, oldest first. */
  ephemeralsOf(session: bigint): string[] {
    return [...(this.#ephemerals.get(session) ?? [])];
  }

  /** Container paths, for the reaper. */
  containers(): string[] {
    return [...this.#containers];
  }

  /** TTL node paths, for the reaper. */
  ttlNodes(): string[] {
    return [...this.#ttls];
  }

  /** Creates a node whose parent exists and which does not (the caller checked). */
  create(path: string, data: Uint8Array | null, acl: readonly ACL[], owner: bigint, zxid: bigint, time: bigint): Change {
    const parentAt = parentPath(path);
    const parent = this.#nodes.get(parentAt)!;
    const name = nodeName(path);
    const before = { cversion: parent.stat.cversion, pzxid: parent.stat.pzxid };
    const node: ZNode = {
      data,
      acl,
      stat: { czxid: zxid, mzxid: zxid, ctime: time, mtime: time, version: 0, cversion: 0, aversion: 0, ephemeralOwner: owner, pzxid: zxid },
      children: new Set(),
      sequence: 0,
    };
    this.#nodes.set(path, node);
    parent.children.add(name);
    parent.stat.cversion++;
    parent.sequence++;
    parent.stat.pzxid = zxid;
    this.#track(path, owner, true);
    return {
      events: [
        { type: EventType.NodeCreated, path },
        { type: EventType.NodeChildrenChanged, path: parentAt },
      ],
      undo: () => {
        this.#track(path, owner, false);
        this.#nodes.delete(path);
        parent.children.delete(name);
        parent.stat.cversion = before.cversion;
        parent.sequence--;
        parent.stat.pzxid = before.pzxid;
      },
    };
  }

  /** Deletes a node that exists and has no children (the caller checked). */
  delete(path: string, zxid: bigint): Change {
    const node = this.#nodes.get(path)!;
    const parentAt = parentPath(path);
    const parent = this.#nodes.get(parentAt)!;
    const name = nodeName(path);
    const before = { cversion: parent.stat.cversion, pzxid: parent.stat.pzxid };
    this.#nodes.delete(path);
    parent.children.delete(name);
    parent.stat.cversion++;
    parent.stat.pzxid = zxid;
    this.#track(path, node.stat.ephemeralOwner, false);
    return {
      events: [
        { type: EventType.NodeDeleted, path },
        { type: EventType.NodeChildrenChanged, path: parentAt },
      ],
      undo: () => {
        this.#nodes.set(path, node);
        // Put the name back where it was would need the old order; appending is what a re-create does too.
        parent.children.add(name);
        parent.stat.cversion = before.cversion;
        parent.stat.pzxid = before.pzxid;
        this.#track(path, node.stat.ephemeralOwner, true);
      },
    };
  }

  /** Replaces the data of an existing node. */
  setData(path: string, data: Uint8Array | null, zxid: bigint, time: bigint): Change {
    const node = this.#nodes.get(path)!;
    const before = { data: node.data, mzxid: node.stat.mzxid, mtime: node.stat.mtime, version: node.stat.version };
    node.data = data;
    node.stat.mzxid = zxid;
    node.stat.mtime = time;
    node.stat.version++;
    return {
      events: [{ type: EventType.NodeDataChanged, path }],
      undo: () => {
        node.data = before.data;
        Object.assign(node.stat, { mzxid: before.mzxid, mtime: before.mtime, version: before.version });
      },
    };
  }

  /** Replaces the ACL of an existing node (no watch fires for that). */
  setACL(path: string, acl: readonly ACL[]): Change {
    const node = this.#nodes.get(path)!;
    const before = { acl: node.acl, aversion: node.stat.aversion };
    node.acl = acl;
    node.stat.aversion++;
    return {
      events: [],
      undo: () => {
        node.acl = before.acl;
        node.stat.aversion = before.aversion;
      },
    };
  }

  #track(path: string, owner: bigint, add: boolean): void {
    const session = sessionOwner(owner);
    if (session !== undefined) {
      let set = this.#ephemerals.get(session);
      if (add) {
        if (set === undefined) this.#ephemerals.set(session, (set = new Set()));
        set.add(path);
      } else if (set !== undefined) {
        set.delete(path);
        if (set.size === 0) this.#ephemerals.delete(session);
      }
      return;
    }
    const set = owner === CONTAINER_OWNER ? this.#containers : ttlOf(owner) !== undefined ? this.#ttls : undefined;
    if (add) set?.add(path);
    else set?.delete(path);
  }
}
