/**
 * The lock predicates: given the children of a lock directory, does our node hold the lock, and if not,
 * which single node should we watch? Pure functions, no I/O, so every rule is table-tested without a server
 * (test/recipes/predicate.test.ts).
 *
 * Ordering must agree with Apache Curator's, or a zkwire client and a Curator client on the same path would each
 * believe they hold the lock: it is the foundation's sequence order (common/sequence.ts), which is Curator's for
 * every sequence number before the counter wraps past 2^31 - 1 and creation order after it.
 */

import { lockSequence, sortLockChildren } from '../common/sequence.js';

export { lockSequence, parseSequence, sortKey, sortLockChildren } from '../common/sequence.js';

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
