/**
 * Curator's down-instance policy: after `errorThreshold` errors noted against an instance it is not handed out,
 * until `timeoutMs` after the first of them. Pure bookkeeping over a clock, tested without a server or a timer.
 */

import type { ServiceInstance } from './service-instance.js';

/** When an instance is taken out, and for how long (Curator's DownInstancePolicy). */
export interface DownInstancePolicy {
  /** How long an instance stays out, from its first noted error. Default 30 000 ms. */
  readonly timeoutMs?: number;
  /** Errors before it is taken out. Default 2. */
  readonly errorThreshold?: number;
}

interface Status {
  readonly since: number;
  errors: number;
}

export class DownInstances {
  readonly #timeoutMs: number;
  readonly #threshold: number;
  readonly #now: () => number;
  readonly #statuses = new Map<string, Status>();

  constructor(policy: DownInstancePolicy = {}, now: () => number = Date.now) {
    this.#timeoutMs = policy.timeoutMs ?? 30_000;
    this.#threshold = policy.errorThreshold ?? 2;
    this.#now = now;
  }

  /** Notes one error against `instance`. */
  noteError(instance: ServiceInstance): void {
    this.#purge();
    const key = keyOf(instance);
    const status = this.#statuses.get(key) ?? { since: this.#now(), errors: 0 };
    status.errors++;
    this.#statuses.set(key, status);
  }

  /** True when `instance` may be handed out. */
  isUp(instance: ServiceInstance): boolean {
    this.#purge();
    const status = this.#statuses.get(keyOf(instance));
    return status === undefined || status.errors < this.#threshold;
  }

  #purge(): void {
    const now = this.#now();
    for (const [key, status] of this.#statuses) if (now - status.since >= this.#timeoutMs) this.#statuses.delete(key);
  }
}

function keyOf(instance: ServiceInstance): string {
  return `${instance.name}/${instance.id}`;
}
