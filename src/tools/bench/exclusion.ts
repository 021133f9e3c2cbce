/**
 * The mutual-exclusion check. All K sessions live in this process, so one object sees every critical section:
 * from the moment an acquire resolves to the moment its holder calls release. Two critical sections that must
 * exclude each other and are open at once are an overlap — exactly what a lock promises never happens.
 * (Deleting the node happens after release is called, so the check is strict: a lock that let the next holder
 * in before the previous one called release would be caught.)
 *
 * Fencing tokens of exclusive holders must also strictly increase in acquisition order.
 */

/** exclusive: mutex or write lock; shared: read lock; lease: one of `maxLeases` semaphore leases. */
export type HolderRole = 'exclusive' | 'shared' | 'lease';

export class ExclusionChecker {
  readonly #maxLeases: number;
  #exclusive = 0;
  #shared = 0;
  #leases = 0;
  #lastToken: bigint | undefined;
  overlaps = 0;
  fencingViolations = 0;

  constructor(maxLeases = 1) {
    this.#maxLeases = maxLeases;}

  enter(role: HolderRole, fencingToken?: bigint): void {
    switch (role) {
      case 'exclusive':
        if (this.#exclusive > 0 || this.#shared > 0 || this.#leases > 0) this.overlaps++;
        this.#exclusive++;
        if (fencingToken !== undefined) {
          if (this.#lastToken !== undefined && fencingToken <= this.#lastToken) this.fencingViolations++;
          this.#lastToken = fencingToken;
        }
        break;
      case 'shared':
        if (this.#exclusive > 0) this.overlaps++;
        this.#shared++;
        break;
      case 'lease':
        if (this.#leases >= this.#maxLeases) this.overlaps++;
        this.#leases++;
        break;
    }
  }

  exit(role: HolderRole): void {
    if (role === 'exclusive') this.#exclusive--;
    else if (role === 'shared') this.#shared--;
    else this.#leases--;
  }

  /** Critical sections open right now. */
  get holders(): number {
    return this.#exclusive + this.#shared + this.#leases;
  }
}
