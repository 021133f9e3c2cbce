/**
 * ServiceProvider: one instance of a service to call, picked by a strategy from those on offer (Curator's
 * ServiceProvider). On offer means: in the ServiceCache, enabled, accepted by every filter, and not taken out by
 * the down-instance policy after errors the caller noted. Everything about following the service is the cache's.
 */

import type { ZooKeeperClient } from '../../client.js';
import { DownInstances, type DownInstancePolicy } from './down-instances.js';
import { randomStrategy, roundRobinStrategy, stickyStrategy, type ProviderStrategy } from './provider-strategies.js';
import { ServiceCache, type ServiceCacheOptions, type ServiceCacheState } from './service-cache.js';
import type { ServiceInstance } from './service-instance.js';
import { clockOf, type Clock } from '../../session/clock.js';

/** How a ServiceProvider chooses. */
export interface ServiceProviderOptions extends ServiceCacheOptions {
  /** `round-robin` (default, Curator's), `random`, `sticky` (round-robin underneath), or a strategy of your own. */
  readonly strategy?: 'random' | 'round-robin' | 'sticky' | ProviderStrategy;
  /** Instances must pass every filter to be handed out (Curator's InstanceFilter). */
  readonly filters?: readonly ((instance: ServiceInstance) => boolean)[];
  /** When noteError() takes an instance out, and for how long. Default: 2 errors, 30 s. */
  readonly downInstancePolicy?: DownInstancePolicy;
  /** Time for the down-instance policy (tests). */
  readonly clock?: Clock;
}

/** Hands out one instance of a service at a time, from a ServiceCache, by strategy, filters and down-instance policy. */
export class ServiceProvider implements AsyncDisposable {
  readonly #cache: ServiceCache;
  readonly #strategy: ProviderStrategy;
  readonly #filters: readonly ((instance: ServiceInstance) => boolean)[];
  readonly #down: DownInstances;

  constructor(client: ZooKeeperClient, name: string, options: ServiceProviderOptions = {}) {
    this.#cache = new ServiceCache(client, name, options.basePath === undefined ? {} : { basePath: options.basePath });
    const strategy = options.strategy ?? 'round-robin';
    this.#strategy =
      strategy === 'random' ? randomStrategy() : strategy === 'round-robin' ? roundRobinStrategy() : strategy === 'sticky' ? stickyStrategy() : strategy;
    this.#filters = options.filters ?? [];
    const clock = clockOf(options.clock);
    this.#down = new DownInstances(options.downInstancePolicy, () => clock.now());
  }

  /** The cache the provider reads (for its events: instanceSkipped, stale, …). */
  get cache(): ServiceCache {
    return this.#cache;
  }

  /** The cache's state: `LATENT`, `STARTED` or `CLOSED`. */
  get state(): ServiceCacheState {
    return this.#cache.state;
  }

  /** Loads the service's instances; resolves once they are in. */
  async start(options: { signal?: AbortSignal } = {}): Promise<void> {
    await this.#cache.start(options);
  }

  /** Every instance on offer now. */
  getAllInstances(): ServiceInstance[] {
    return this.#cache.getInstances().filter((i) => i.enabled && this.#down.isUp(i) && this.#filters.every((f) => f(i)));
  }

  /** One instance on offer, chosen by the strategy, or null when there is none. */
  getInstance(): ServiceInstance | null {
    return this.#strategy.getInstance(this.getAllInstances());
  }

  /** Notes that a call to `instance` failed: after the policy's threshold it is not handed out for a while. */
  noteError(instance: ServiceInstance): void {
    this.#down.noteError(instance);
  }

  /** Stops following the service. */
  async close(): Promise<void> {
    await this.#cache.close();
  }

  /** For `await using`: close() if started. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.#cache[Symbol.asyncDispose]();
  }
}
