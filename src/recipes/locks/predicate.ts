/**
 * The lock predicates: given the children of a lock directory, does our node hold the lock, and if not,
 * which single node should we watch? Pure functions, no I/O, so every rule is table-tested without a server
 * (test/recipes/predicate.test.ts).
 *
 * Ordering must agree with Apache Curator's, or a zkwire client and a Curator client on the same path would each
 * believe they hold the lock. Curator orders children by the text after the last occurrence of the lock name
 * (`lock-`, `__READ__`, `__WRIT__`), which skips the `_c_<uuid>-` protection prefix. For every sequence number
 * ZooKeeper hands out before its counter passes 2^31 - 1, that text is ten zero-padded digits and text order is
 * numeric order, so we agree with Curator exactly. Past that point ZooKeeper formats the counter as a signed
 * number (`-2147483648`, then `-000000001` style), and Curator's text order would put the newest node first,
 * letting two clients hold one mutex. We instead order by the counter as an unsigned 32-bit value read on a
 * circle, starting after the widest gap between live sequence numbers: while every live node of one lock was
 * created within 2^31 creations of the others (always, in practice), that is the true creation order, and it is
 * identical to Curator's order whenever the counter has not wrapped.
 */

/** What a predicate decides for our node. */
export type PredicateResult =
  | { readonly acquired: true }
  /**
   * Not yet: wait for this child (a name in the same directory) to change or go away, then ask again.
   * `blockers`, when given, are every child that keeps us out: once all of them are deleted we hold, without
   * asking again (see internals.ts).
   */
  | { readonly acquired: false; readonly watchPath: string; readonly blockers?: readonly string[] }
  /** Our node is not among the children: it was deleted, usually because the session that owned it ended. */
  | { readonly acquired: false; readonly missing: true };

const UINT32 = 2 ** 32;

/**
 * Curator's sort key: the text after the last occurrence of each lock name in turn (a read/write lock strips
 * `__READ__` and then `__WRIT__`). A name that contains none of them is its own key.
 */
export function sortKey(name: string, lockNames: readonly string[]): string {
  let key = name;
  for (const lockName of lockNames) {
    const at = key.lastIndexOf(lockName);
    if (at >= 0) key = key.slice(at + lockName.length);
  }
  return key;
}

/**
 * ZooKeeper's sequence suffix, as written by `%010d` of a signed 32-bit counter: ten digits for 0 ..
 * 2147483647, a minus sign and nine digits for -1 .. -999999999, a minus sign and ten digits below that.
 * Returns undefined for anything else (so a stray child is never mistaken for a lock node).
 */
export function parseSequence(suffix: string): number | undefined {
  if (/^\d{10}$/.test(suffix)) {
    const value = Number(suffix);
    return value <= 0x7fffffff ? value : undefined;
  }
  if (/^-\d{9,10}$/.test(suffix)) {
    const value = Number(suffix);
    // `-000000000` is not something ZooKeeper writes (zero is positive); below -2^31 is not an int.
    if (value === 0 || Object.is(value, -0) || value < -0x80000000) return undefined;
    // ten digits after the sign only when nine would not do, as %010d pads to ten characters in all
    if (suffix.length === 11 && value > -1_000_000_000) return undefined;
    return value;
  }
  return undefined;
}

/** The sequence number of a lock child, or undefined when its name does not end in one after a lock name. */
export function lockSequence(name: string, lockNames: readonly string[]): number | undefined {
  if (!lockNames.some((lockName) => name.includes(lockName))) return undefined;
  return parseSequence(sortKey(name, lockNames));
}

/**
 * Children in lock order (see the file comment). Names without a sequence keep Curator's text order among
 * themselves and come after every sequenced node: they are not lock participants and must not block one.
 */
export function sortLockChildren(children: readonly string[], lockNames: readonly string[]): string[] {
  const sequenced: { name: string; u: number }[] = [];
  const others: { name: string; key: string }[] = [];
  for (const name of children) {
    const seq = lockSequence(name, lockNames);
    if (seq === undefined) others.push({ name, key: sortKey(name, lockNames) });
    else sequenced.push({ name, u: seq >>> 0 });
  }
  sequenced.sort((a, b) => a.u - b.u);
  const start = startAfterWidestGap(sequenced.map((s) => s.u));
  others.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return [
    ...sequenced.slice(start).map((s) => s.name),
    ...sequenced.slice(0, start).map((s) => s.name),
    ...others.map((o) => o.name),
  ];
}

/**
 * Index (into ascending unsigned values) of the oldest node on the counter's circle: the one right after the
 * widest gap. Ties keep index 0, so without a wrap the order is plain ascending.
 */
function startAfterWidestGap(ascending: readonly number[]): number {
  const n = ascending.length;
  if (n < 2) return 0;
  let widest = (ascending[0] as number) + UINT32 - (ascending[n - 1] as number);
  let start = 0;
  for (let i = 1; i < n; i++) {
    const gap = (ascending[i] as number) - (ascending[i - 1] as number);
    if (gap > widest) {
      widest = gap;
      start = i;
    }
  }
  return start;
}

/**
 * The standard predicate (Curator's StandardLockInternalsDriver): with `maxLeases` holders allowed, our node
 * holds when fewer than `maxLeases` nodes precede it; otherwise it watches the node `maxLeases` places ahead,
 * so each waiter wakes only when the one it queues behind changes (no herd). A mutex and a write lock use 1.
 */
export function getsTheLock(sortedChildren: readonly string[], ourNode: string, maxLeases: number): PredicateResult {
  const ourIndex = sortedChildren.indexOf(ourNode);
  if (ourIndex < 0) return { acquired: false, missing: true };
  if (ourIndex < maxLeases) return { acquired: true };
  const watchPath = sortedChildren[ourIndex - maxLeases] as string;
  // With one holder allowed, every node ahead blocks us, and nothing else does.
  return maxLeases === 1 ? { acquired: false, watchPath, blockers: sortedChildren.slice(0, ourIndex) } : { acquired: false, watchPath };
}

/**
 * The read-lock predicate: a reader holds when no writer node precedes it, and otherwise watches the first
 * writer. A reader that already holds the write lock of the same lock (`ownWriteNode`, passed only while that
 * write lock is held) may read at once: that is how a writer downgrades. Children must be sorted with both lock
 * names (`sortLockChildren(children, [READ_LOCK_NAME, WRITE_LOCK_NAME])`).
 */
export function readerGetsTheLock(
  sortedChildren: readonly string[],
  ourNode: string,
  writeLockName: string,
  ownWriteNode?: string,
): PredicateResult {
  const writersAhead: string[] = [];
  for (const name of sortedChildren) {
    if (name === ourNode) {
      const firstWriter = writersAhead[0];
      if (firstWriter === undefined || firstWriter === ownWriteNode) return { acquired: true };
      // Every writer ahead blocks us, and nothing else does; while the owner's own write lock is held that set
      // changes when it is released, so then we only watch the first writer and ask again.
      return ownWriteNode === undefined
        ? { acquired: false, watchPath: firstWriter, blockers: writersAhead }
        : { acquired: false, watchPath: firstWriter };
    }
    if (name.includes(writeLockName)) writersAhead.push(name);
  }
  return { acquired: false, missing: true };
}

/** What one pass over an unsorted listing learns about the nodes ahead of ours. */
interface Scan {
  /** Nodes ahead of ours (that block us, for a reader: writers). */
  count: number;
  /** The blocking node just ahead of ours, and the first blocking node. */
  nearest: string | undefined;
  first: string | undefined;
  /** The blocking nodes ahead, in lock order, collected while there are at most `limit` of them. */
  blockers: string[];
}

/**
 * One pass over unsorted children, no sort: undefined when our node is missing, or when any sequence has passed
 * 2^31 - 1 (then the circular order of sortLockChildren is needed; otherwise it is plain numeric order).
 */
function scan(children: readonly string[], ourNode: string, lockNames: readonly string[], blocks: (name: string) => boolean, limit: number): Scan | 'missing' | 'wrapped' {
  const ours = lockSequence(ourNode, lockNames);
  if (ours === undefined || ours < 0) return 'wrapped';
  let found = false;
  let nearestSeq = -1;
  let firstSeq = Infinity;
  const result: Scan = { count: 0, nearest: undefined, first: undefined, blockers: [] };
  const blockerSeqs: number[] = [];
  for (const name of children) {
    if (name === ourNode) {
      found = true;
      continue;
    }
    const seq = lockSequence(name, lockNames);
    if (seq === undefined) continue;
    if (seq < 0) return 'wrapped';
    if (seq >= ours || !blocks(name)) continue;
    result.count++;
    if (result.count <= limit) {
      result.blockers.push(name);
      blockerSeqs.push(seq);
    }
    if (seq > nearestSeq) {
      nearestSeq = seq;
      result.nearest = name;
    }
    if (seq < firstSeq) {
      firstSeq = seq;
      result.first = name;
    }
  }
  if (!found) return 'missing';
  if (result.count <= limit && result.count > 1) {
    // Lock order of the blockers alone (numbers, not names): the rest of the listing is never sorted.
    const order = blockerSeqs.map((_, i) => i).sort((a, b) => (blockerSeqs[a] as number) - (blockerSeqs[b] as number));
    result.blockers = order.map((i) => result.blockers[i] as string);
  }
  return result;
}

const MISSING: PredicateResult = Object.freeze({ acquired: false, missing: true } as const);
const ACQUIRED: PredicateResult = Object.freeze({ acquired: true } as const);

/** Drops `blockers` when there are more than `limit` of them. */
function capped(result: PredicateResult, limit: number): PredicateResult {
  if (result.acquired || 'missing' in result || result.blockers === undefined || result.blockers.length <= limit) return result;
  return { acquired: false, watchPath: result.watchPath };
}

/**
 * getsTheLock with one holder, straight from an unsorted listing in one pass (no sort): what a waiter in a deep
 * queue needs on every listing. `blockers` (in lock order) is given only when there are at most `limit` of
 * them. Same answers as getsTheLock over sortLockChildren, which it falls back to once a sequence
 * has wrapped past 2^31 - 1.
 */
export function mutexVerdict(children: readonly string[], ourNode: string, lockNames: readonly string[], limit: number): PredicateResult {
  const s = scan(children, ourNode, lockNames, () => true, limit);
  if (s === 'missing') return MISSING;
  if (s === 'wrapped') return capped(getsTheLock(sortLockChildren(children, lockNames), ourNode, 1), limit);
  if (s.nearest === undefined) return ACQUIRED;
  return s.count <= limit ? { acquired: false, watchPath: s.nearest, blockers: s.blockers } : { acquired: false, watchPath: s.nearest };
}

/** readerGetsTheLock from an unsorted listing in one pass; see mutexVerdict. */
export function readerVerdict(
  children: readonly string[],
  ourNode: string,
  lockNames: readonly string[],
  writeLockName: string,
  ownWriteNode: string | undefined,
  limit: number,
): PredicateResult {
  const s = scan(children, ourNode, lockNames, (name) => name.includes(writeLockName), limit);
  if (s === 'missing') return MISSING;
  if (s === 'wrapped') return capped(readerGetsTheLock(sortLockChildren(children, lockNames), ourNode, writeLockName, ownWriteNode), limit);
  if (s.first === undefined || s.first === ownWriteNode) return ACQUIRED;
  if (ownWriteNode !== undefined || s.count > limit) return { acquired: false, watchPath: s.first };
  return { acquired: false, watchPath: s.first, blockers: s.blockers };
}
