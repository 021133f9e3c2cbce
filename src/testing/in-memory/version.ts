/**
 * Which ZooKeeper release line an InMemoryZooKeeper reproduces, and every behaviour that differs between them, in
 * one place: the handlers read a flag here instead of comparing version strings. Each flag is a difference the
 * conformance suite found between real 3.8.0 and 3.9.3 (test/conformance asserts both sides, on both servers).
 */

/** The ZooKeeper versions an {@link InMemoryZooKeeper} can reproduce. */
export type InMemoryZooKeeperVersion = '3.8' | '3.9';

/** The default: the newest. */
export const NEWEST_IN_MEMORY_VERSION: InMemoryZooKeeperVersion = '3.9';

/** The version-dependent behaviours. */
export interface VersionBehaviour {
  readonly version: InMemoryZooKeeperVersion;
  /**
   * `exists` on a node the caller may not READ answers NOAUTH (3.9, before any watch is set); 3.8 answers the stat
   * whatever the node's ACL.
   */
  readonly existsChecksRead: boolean;
  /**
   * checkWatches/removeWatches of type Data or Children see only one-shot watches (3.9: a persistent watch is found
   * only by Any, or by its own type); 3.8 finds and removes a persistent or recursive watch through them too.
   */
  readonly typedRemovalSeesOnlyStandard: boolean;
}

export function behaviourOf(version: InMemoryZooKeeperVersion): VersionBehaviour {
  switch (version) {
    case '3.8':
      return { version, existsChecksRead: false, typedRemovalSeesOnlyStandard: false };
    case '3.9':
      return { version, existsChecksRead: true, typedRemovalSeesOnlyStandard: true };
    default:
      throw new RangeError(`InMemoryZooKeeper reproduces ZooKeeper '3.8' or '3.9', not ${JSON.stringify(version)}`);
  }
}
