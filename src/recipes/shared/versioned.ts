/**
 * Which of two reads of a node is the newer. Curator orders SharedValue reads by Stat.version, a signed 32-bit int
 * that wraps from 2^31 − 1 to −2^31 (CURATOR-688) and restarts at 0 when the node is deleted and created again:
 * either way a newer value looks older and is dropped for good. The modification zxid (mzxid) only ever grows for
 * the life of the ensemble, so it is what we order by; the version is kept only for conditional writes, where the
 * server compares it for equality.
 */

/** A value with the Stat.version it was read or written at (Curator's VersionedValue). */
export interface VersionedValue<T> {
  /** The node's Stat.version: pass it back to a try-set to write only if nobody wrote meanwhile. */
  readonly version: number;
  readonly value: T;
}

/** The parts of a Stat that order reads. */
export interface ValueStamp {
  readonly version: number;
  readonly mzxid: bigint;
}

/** True when `next` was written after `current` (never decided by version). */
export function supersedes(next: ValueStamp, current: ValueStamp | undefined): boolean {
  return current === undefined || next.mzxid > current.mzxid;
}
