/**
 * The shared resource the chaos workers protect: an in-process stand-in for a database that takes fencing tokens.
 *
 * Per lock it remembers the highest token it has accepted and who is inside right now. It refuses a holder whose
 * token is older than one already accepted (the classic fencing check: that holder lost the lock without knowing
 * it), and refuses its later writes once a newer holder has come in. Refusals are the resource doing its job, not
 * violations. A violation is what the lock exists to prevent: a writer inside together with anyone else (a mutex is
 * a writer), or more semaphore holders inside than the semaphore allows.
 *
 * Read/write tokens: a writer's node is created after every reader it waited for, and a reader waits for every
 * earlier writer, so a writer must beat every token accepted so far, and a reader only every writer's token.
 */

export type HolderKind = 'write' | 'read' | 'lease';

interface Holder {
  readonly lock: string;
  readonly kind: HolderKind;
  readonly token: bigint;
}

interface LockBook {
  /** Highest token accepted from any holder, and from writers only. */
  maxAny: bigint;
  maxWrite: bigint;
  readonly inside: Set<number>;
}

export interface ResourceFigures {
  entries: number;
  writes: number;
  /** Entries refused because the token was older than one already accepted. */
  staleEntriesRefused: number;
  /** Writes refused because a newer holder had come in meanwhile. */
  staleWritesRefused: number;
  /** Leases whose lock-lost signal had fired before their holder entered (not entered with). */
  lostBeforeEntry: number;
  /** A writer inside together with another holder (mutex, write lock), or a reader inside with a writer. */
  exclusionViolations: number;
  /** More semaphore holders inside at once than maxLeases. */
  overAdmissions: number;
  /** The most holders seen inside one semaphore at once. */
  maxSemaphoreHolders: number;
  /** Human-readable descriptions of the first few violations, for the report. */
  violationNotes: string[];
}

const MAX_NOTES = 10;

export class FencedResource {
  private readonly books = new Map<string, LockBook>();
  private readonly holders = new Map<number, Holder>();
  private nextId = 1;
  readonly figures: ResourceFigures = {
    entries: 0,
    writes: 0,
    staleEntriesRefused: 0,
    staleWritesRefused: 0,
    lostBeforeEntry: 0,
    exclusionViolations: 0,
    overAdmissions: 0,
    maxSemaphoreHolders: 0,
    violationNotes: [],
  };

  constructor(private readonly semaphoreLimits: ReadonlyMap<string, number>) {}

  /** Enters the critical section; returns a holder id, or undefined when the token is refused as stale. */
  enter(lock: string, kind: HolderKind, token: bigint, who: string): number | undefined {
    const book = this.book(lock);
    const floor = kind === 'write' ? book.maxAny : kind === 'read' ? book.maxWrite : -1n;
    if (kind !== 'lease' && token <= floor) {
      this.figures.staleEntriesRefused++;
      return undefined;
    }
    if (token > book.maxAny) book.maxAny = token;
    if (kind === 'write' && token > book.maxWrite) book.maxWrite = token;
    this.figures.entries++;
    const others = [...book.inside].map((id) => this.holders.get(id)).filter((h): h is Holder => h !== undefined);
    if (kind === 'write' && others.length > 0) {
      this.violation(`${who} entered ${lock} as a writer (token ${token}) while ${describe(others)} inside`);
    } else if (kind === 'read' && others.some((h) => h.kind === 'write')) {
      this.violation(`${who} entered ${lock} as a reader (token ${token}) while ${describe(others)} inside`);
    } else if (kind === 'lease') {
      const limit = this.semaphoreLimits.get(lock) ?? Infinity;
      const count = others.length + 1;
      if (count > this.figures.maxSemaphoreHolders) this.figures.maxSemaphoreHolders = count;
      if (count > limit) {
        this.figures.overAdmissions++;
        this.note(`${who} made ${count} holders of semaphore ${lock} (max ${limit})`);
      }
    }
    const id = this.nextId++;
    this.holders.set(id, { lock, kind, token });
    book.inside.add(id);
    return id;
  }

  /** A write inside the critical section; false (refused) when a newer holder has been accepted meanwhile. */
  write(id: number): boolean {
    const holder = this.holders.get(id);
    if (holder === undefined) throw new Error(`write by holder ${id}, who is not inside`);
    const book = this.book(holder.lock);
    const floor = holder.kind === 'write' ? book.maxAny : holder.kind === 'read' ? book.maxWrite : undefined;
    if (floor !== undefined && holder.token < floor) {
      this.figures.staleWritesRefused++;
      return false;
    }
    this.figures.writes++;
    return true;
  }

  /**
   * The holder's process has been stopped (SIGSTOP): it does nothing while stopped, so it no longer counts as inside
   * for exclusion, but it is still a holder. If it writes after it runs again, its token is checked as any holder's
   * (refused once a newer holder has come in: the fencing a paused lock holder needs); exit() ends it.
   */
  suspend(id: number): void {
    const holder = this.holders.get(id);
    if (holder !== undefined) this.book(holder.lock).inside.delete(id);
  }

  exit(id: number): void {
    const holder = this.holders.get(id);
    if (holder === undefined) return;
    this.holders.delete(id);
    this.book(holder.lock).inside.delete(id);
  }

  /** Holders still inside (must be none once every worker has stopped). */
  get insideCount(): number {
    return this.holders.size;
  }

  private violation(text: string): void {
    this.figures.exclusionViolations++;
    this.note(text);
  }

  private note(text: string): void {
    if (this.figures.violationNotes.length < MAX_NOTES) this.figures.violationNotes.push(text);
  }

  private book(lock: string): LockBook {
    let book = this.books.get(lock);
    if (book === undefined) {
      book = { maxAny: -1n, maxWrite: -1n, inside: new Set() };
      this.books.set(lock, book);
    }
    return book;
  }
}

function describe(holders: readonly Holder[]): string {
  const list = holders.map((h) => `${h.kind} ${h.token}`).join(', ');
  return `${holders.length === 1 ? 'was' : 'were'} [${list}]`;
}
