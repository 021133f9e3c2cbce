/**
 * The in-memory server's one queue of byte deliveries, both ways. Nothing is delivered inside the call that
 * produced it (a socket never calls back into its writer): jobs run in order from a microtask, so a reply reaches
 * the client after the request's write returned, and a notification before the reply that follows it.
 */
export class DeliveryQueue {
  #jobs: (() => void)[] = [];
  #scheduled = false;

  /** Runs `job` after the current call stack, after every job queued before it. */
  push(job: () => void): void {
    this.#jobs.push(job);
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => this.#drain());
  }

  #drain(): void {
    // Jobs queued while draining run in this same pass, after the ones before them.
    try {
      for (let i = 0; i < this.#jobs.length; i++) this.#jobs[i]!();
    } finally {
      this.#jobs = [];
      this.#scheduled = false;
    }
  }
}
