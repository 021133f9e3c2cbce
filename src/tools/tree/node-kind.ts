/**
 * What kind of node a Stat describes. ZooKeeper keeps it in ephemeralOwner (EphemeralType): 0 for a persistent
 * node, Long.MIN_VALUE for a container, 0xff in the top byte and the TTL in the low 40 bits for a TTL node, and
 * any other value is the session that owns an ephemeral node.
 */

/** A node's kind as the subtree tools name it (the export format's `kind`). */
export type NodeKind = 'persistent' | 'container' | 'ttl' | 'ephemeral';

/** The kind, with the TTL (ms) of a TTL node and the owning session of an ephemeral one. */
export interface KindOf {
  readonly kind: NodeKind;
  readonly ttl?: number;
  readonly owner?: bigint;
}

const CONTAINER_OWNER = 0x8000000000000000n;
const EXTENDED_TOP = 0xffn;

/** The kind of the node whose Stat has this ephemeralOwner (read as signed or unsigned, both work). */
export function kindOf(ephemeralOwner: bigint): KindOf {
  const u = BigInt.asUintN(64, ephemeralOwner);
  if (u === 0n) return { kind: 'persistent' };
  if (u === CONTAINER_OWNER) return { kind: 'container' };
  if (u >> 56n === EXTENDED_TOP) return { kind: 'ttl', ttl: Number(u & 0xffffffffffn) };
  return { kind: 'ephemeral', owner: u };
}

/**
 * True when a node name ends as a sequential node's does (ten decimal digits, ZooKeeper's `%010d` suffix). A name
 * tells only that much: a node created with such a name by hand looks the same.
 */
export function looksSequential(name: string): boolean {
  return /\d{10}$/.test(name);
}
