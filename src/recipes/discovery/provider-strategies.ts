/**
 * How a ServiceProvider picks one instance from those it may hand out (Curator's ProviderStrategy): each is a small
 * object holding only its own memory (the round-robin position, the sticky choice), table-testable without a server.
 */

import type { ServiceInstance } from './service-instance.js';

/** Picks one of `instances` (already filtered), or null when there is none. */
export interface ProviderStrategy {
  /** One of `instances`, or null when there is none. */
  getInstance(instances: readonly ServiceInstance[]): ServiceInstance | null;
}

/** Any instance, uniformly (Curator's RandomStrategy). `random` returns [0, 1) (tests pass their own). */
export function randomStrategy(random: () => number = Math.random): ProviderStrategy {
  return {
    getInstance: (instances) => (instances.length === 0 ? null : (instances[Math.floor(random() * instances.length) % instances.length] ?? null)),
  };
}

/** Each instance in turn (Curator's RoundRobinStrategy: a counter modulo the current number of instances). */
export function roundRobinStrategy(): ProviderStrategy {
  let next = 0;
  return {
    getInstance: (instances) => {
      if (instances.length === 0) return null;
      const pick = instances[next % instances.length] ?? null;
      next = (next + 1) % Number.MAX_SAFE_INTEGER;
      return pick;
    },
  };
}

/**
 * The same instance for as long as it is on offer, then another one chosen by `master` (Curator's StickyStrategy).
 * "The same" is the same name and id: an instance whose data was updated stays chosen.
 */
export function stickyStrategy(master: ProviderStrategy = roundRobinStrategy()): ProviderStrategy & { readonly instanceNumber: number } {
  let ours: ServiceInstance | null = null;
  let instanceNumber = -1;
  return {
    get instanceNumber() {
      return instanceNumber;
    },
    getInstance(instances) {
      const still = ours === null ? undefined : instances.find((i) => i.id === ours?.id && i.name === ours.name);
      if (still !== undefined) return (ours = still);
      ours = master.getInstance(instances);
      if (ours !== null) instanceNumber++;
      return ours;
    },
  };
}
