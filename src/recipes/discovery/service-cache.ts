/**
 * ServiceCache: the instances of one service, kept current in memory (Curator's ServiceCache). It is a CuratorCache
 * on `<basePath>/<name>` read through the instance codec, so everything about staying current (the watch, the
 * walk after a reconnect, the new session after an expiry, STALE/RESYNCED) is the cache's; this recipe only turns
 * nodes into instances. A child whose data is not an instance is left out with an `instanceSkipped` event (a
 * broken registration must not take the whole service's consumers down).
 */

import type { ZooKeeperClient } from '../../client.js';
import type { ZooKeeperError } from '../../errors.js';
import { CuratorCache, type ChildData } from '../cache/curator-cache.js';
import { badArgument, illegalState } from '../common/errors.js';
import { EventHub, type RecipeEvents } from '../common/event-hub.js';
import { joinPath, nodeName, parentPath } from '../common/nodes.js';
import { decodeServiceInstance } from './instance-codec.js';
import { isNodeName, type ServiceInstance } from './service-instance.js';

/** What listeners and iterators of a ServiceCache hear. `node` is the instance's node name (its id, or id and sequence). */
export type ServiceCacheEvent =
  | { readonly type: 'instanceAdded'; readonly node: string; readonly instance: ServiceInstance }
  | { readonly type: 'instanceChanged'; readonly node: string; readonly instance: ServiceInstance; readonly previous: ServiceInstance }
  | { readonly type: 'instanceRemoved'; readonly node: string; readonly previous: ServiceInstance }
  /** A node under the service holds no instance; it is left out (and what it held before, if anything, removed). */
  | { readonly type: 'instanceSkipped'; readonly path: string; readonly error: ZooKeeperError }
  /** The first load is in (after the instance events it produced). */
  | { readonly type: 'initialized' }
  /** The instances may lag the server (connection suspended or lost), until `resynced`. */
  | { readonly type: 'stale' }
  | { readonly type: 'resynced' };

/** Where the registry is. */
export interface ServiceCacheOptions {
  /** Default `/services`. */
  readonly basePath?: string;
}

/** `LATENT` constructed; `STARTED` from start() on; `CLOSED` after close() (empty). */
export type ServiceCacheState = 'LATENT' | 'STARTED' | 'CLOSED';

/** One service's instances, kept current in memory from a CuratorCache on `<basePath>/<name>`. */
export class ServiceCache implements RecipeEvents<ServiceCacheEvent>, AsyncDisposable {
  readonly #cache: CuratorCache;
  readonly #instances = new Map<string, ServiceInstance>();
  readonly #events = new EventHub<ServiceCacheEvent>();
  /** The service's node, `<basePath>/<name>`. */
  readonly path: string;

  constructor(
    client: ZooKeeperClient,
    /** The service's name. */
    readonly name: string,
    options: ServiceCacheOptions = {},
  ) {
    if (!isNodeName(name)) throw badArgument('ServiceCache', options.basePath, `name ${JSON.stringify(name)} is not a valid node name`);
    this.path = joinPath(options.basePath ?? '/services', name);
    this.#cache = new CuratorCache(client, this.path);
    this.#cache.addListener((event) => {
      switch (event.type) {
        case 'nodeCreated':
        case 'nodeChanged':
          this.#put(event.node);
          return;
        case 'nodeDeleted':
          this.#remove(event.oldNode.path);
          return;
        case 'initialized':
          this.#events.emit({ type: 'initialized' });
          return;
        case 'stale':
          this.#events.emit({ type: 'stale' });
          return;
        case 'resynced':
          this.#events.emit({ type: 'resynced' });
      }
    });
  }

  /** The underlying cache's state: `LATENT`, `STARTED` or `CLOSED`. */
  get state(): ServiceCacheState {
    return this.#cache.state;
  }

  /** True while the instances may lag the server (see CuratorCache.stale). */
  get stale(): boolean {
    return this.#cache.stale;
  }

  /** Loads the service's instances; resolves once they are in. ILLEGAL_STATE if started already or closed. */
  async start(options: { signal?: AbortSignal } = {}): Promise<void> {
    await this.#cache.start(options);
  }

  /** The service's instances as known now (from memory). */
  getInstances(): ServiceInstance[] {
    if (this.state !== 'STARTED') throw illegalState('ServiceCache.getInstances', this.path, `the cache is ${this.state}`);
    return [...this.#instances.values()];
  }

  addListener(listener: (event: ServiceCacheEvent) => void): () => void {
    return this.#events.subscribe(listener);
  }

  events(options: { signal?: AbortSignal } = {}): AsyncIterable<ServiceCacheEvent> {
    return this.#events.stream(options.signal);
  }

  /** Stops following the service and forgets its instances. ILLEGAL_STATE unless started. */
  async close(): Promise<void> {
    await this.#cache.close();
    this.#instances.clear();
    this.#events.end();
  }

  /** For `await using`: close() if started, else just marks it CLOSED. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.state === 'STARTED') await this.close();
    else await this.#cache[Symbol.asyncDispose]();
    this.#events.end();
  }

  #put(node: ChildData): void {
    if (parentPath(node.path) !== this.path || node.path === this.path) return; // the service node, or deeper
    const key = nodeName(node.path);
    const previous = this.#instances.get(key);
    let instance: ServiceInstance;
    try {
      instance = decodeServiceInstance(node.data, node.path);
    } catch (err) {
      this.#remove(node.path);
      this.#events.emit({ type: 'instanceSkipped', path: node.path, error: err as ZooKeeperError });
      return;
    }
    this.#instances.set(key, instance);
    if (previous === undefined) this.#events.emit({ type: 'instanceAdded', node: key, instance });
    else this.#events.emit({ type: 'instanceChanged', node: key, instance, previous });
  }

  #remove(path: string): void {
    if (parentPath(path) !== this.path || path === this.path) return;
    const key = nodeName(path);
    const previous = this.#instances.get(key);
    if (previous === undefined) return;
    this.#instances.delete(key);
    this.#events.emit({ type: 'instanceRemoved', node: key, previous });
  }
}
