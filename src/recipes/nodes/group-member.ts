/**
 * GroupMember: Curator's group membership. Each member keeps an ephemeral node `<membershipPath>/<id>` holding its
 * payload (a PersistentNode, so it comes back after it is lost) and watches the group with a CuratorCache, so
 * getCurrentMembers() answers from memory.
 */

import type { Data } from '../../client/types.js';
import { CuratorCache } from '../cache/curator-cache.js';
import { badArgument, illegalState } from '../common/errors.js';
import { EventHub, type RecipeEvents } from '../common/event-hub.js';
import { checkRecipePath, joinPath, nodeName, parentPath } from '../common/nodes.js';
import type { ZooKeeperClient } from '../../client.js';
import type { RecipeState } from '../common/lifecycle.js';
import { PersistentNode } from './persistent-node.js';

/** Membership changes seen by a GroupMember. */
export type GroupMemberEvent =
  | { readonly type: 'memberJoined'; readonly id: string; readonly data: Uint8Array }
  | { readonly type: 'memberChanged'; readonly id: string; readonly data: Uint8Array }
  | { readonly type: 'memberLeft'; readonly id: string };

export class GroupMember implements RecipeEvents<GroupMemberEvent>, AsyncDisposable {
  readonly #node: PersistentNode;
  readonly #cache: CuratorCache;
  readonly #events = new EventHub<GroupMemberEvent>();

  constructor(
    client: ZooKeeperClient,
    /** The group's directory. */
    readonly membershipPath: string,
    /** This member's id: the name of its node. */
    readonly thisId: string,
    payload: Data = new Uint8Array(0),
  ) {
    checkRecipePath(membershipPath, 'GroupMember');
    if (typeof thisId !== 'string' || thisId === '' || thisId.includes('/') || thisId === '.' || thisId === '..') {
      throw badArgument('GroupMember', membershipPath, 'thisId must be a non-empty node name');
    }
    this.#node = new PersistentNode(client, joinPath(membershipPath, thisId), payload, { mode: 'ephemeral' });
    this.#cache = new CuratorCache(client, membershipPath);
    this.#cache.addListener((event) => {
      if (event.type === 'initialized' || event.type === 'stale' || event.type === 'resynced' || event.type === 'unreadable') return; // not membership changes
      const node = event.type === 'nodeDeleted' ? event.oldNode : event.node;
      if (parentPath(node.path) !== membershipPath || node.path === membershipPath) return;
      const id = nodeName(node.path);
      if (event.type === 'nodeCreated') this.#events.emit({ type: 'memberJoined', id, data: node.data });
      else if (event.type === 'nodeChanged') this.#events.emit({ type: 'memberChanged', id, data: node.data });
      else this.#events.emit({ type: 'memberLeft', id });
    });
  }

  /**
   * Joins the group and resolves once our node exists and the view of the group (us included) is loaded.
   * ILLEGAL_STATE if started already.
   */
  start(options: { readonly signal?: AbortSignal } = {}): Promise<void> {
    const started = (async () => {
      await this.#node.start(options);
      await this.#cache.start(options);
    })();
    started.catch(() => undefined); // awaiting start() is optional, as for every recipe (common/lifecycle.ts)
    return started;
  }

  /** Where the member is in its life (its node's state: see common/lifecycle.ts). */
  get state(): RecipeState {
    return this.#node.state;
  }

  /** Every member id → payload, as seen now (from memory). */
  getCurrentMembers(): Map<string, Uint8Array> {
    if (this.#cache.state !== 'STARTED') throw illegalState('GroupMember.getCurrentMembers', this.membershipPath, `the member is ${this.#cache.state}`);
    const members = new Map<string, Uint8Array>();
    for (const child of this.#cache.childrenOf(this.membershipPath)) {
      const node = this.#cache.get(child);
      if (node !== undefined) members.set(nodeName(child), node.data);
    }
    return members;
  }

  /** The id a member node path stands for (Curator's idFromPath). */
  idFromPath(path: string): string {
    return nodeName(path);
  }

  /** Changes this member's payload. */
  setThisData(data: Data): Promise<void> {
    return this.#node.setData(data);
  }

  addListener(listener: (event: GroupMemberEvent) => void): () => void {
    return this.#events.subscribe(listener);
  }

  events(options: { signal?: AbortSignal } = {}): AsyncIterable<GroupMemberEvent> {
    return this.#events.stream(options.signal);
  }

  /** Leaves the group (our node deleted) and stops watching it. */
  async close(): Promise<void> {
    await this.#node.close();
    // the view may not be started yet (start() makes our node first): disposal closes it in any state
    await this.#cache[Symbol.asyncDispose]();
    this.#events.end();
  }

  /** For `await using`: leaves the group (our node deleted) and stops watching it, quietly in any state. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.#node[Symbol.asyncDispose]();
    await this.#cache[Symbol.asyncDispose]();
    this.#events.end();
  }
}
