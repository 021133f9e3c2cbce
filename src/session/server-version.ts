/**
 * What a server's version allows: the ZooKeeper release that introduced each request opcode newer than 3.5 (from
 * ZooDefs.OpCode and zookeeper.jute), how a version is read from the `srvr` / `envi` four-letter words, and the
 * refusal of an op the server lacks. A server older than an op answers it with UNIMPLEMENTED and then closes the
 * connection (UnimplementedRequestProcessor), which costs every call in flight: refusing it before sending does not.
 */

import { clientError, type ZooKeeperError } from '../errors.js';
import { OpCode, opName } from '../protocol/index.js';

export interface ServerVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  /** As the server printed it, e.g. "3.8.4". */
  readonly text: string;
}

/** A release as [major, minor, patch]. */
export type Release = readonly [number, number, number];

/** The releases that brought opcodes newer than 3.4, each with those opcodes. */
const NEW_OPS: readonly (readonly [Release, readonly number[]])[] = [
  [[3, 5, 0], [OpCode.create2, OpCode.reconfig, OpCode.checkWatches, OpCode.removeWatches, OpCode.createContainer, OpCode.deleteContainer]],
  [[3, 5, 3], [OpCode.createTTL]],
  [[3, 6, 0], [OpCode.multiRead, OpCode.getEphemerals, OpCode.getAllChildrenNumber, OpCode.setWatches2, OpCode.addWatch]],
  [[3, 7, 0], [OpCode.whoAmI]],
];

/** Each opcode newer than 3.4, with the release that introduced it. */
const INTRODUCED: ReadonlyMap<number, Release> = new Map(NEW_OPS.flatMap(([release, ops]) => ops.map((op) => [op, release] as const)));

/** The release that introduced `opcode`; undefined for the ops every supported server has (3.4's). */
export function introducedIn(opcode: number): Release | undefined {
  return INTRODUCED.get(opcode);
}

/** Whether `a` is an older release than `b`. */
export function olderThan(a: Release, b: Release): boolean {
  return a[0] !== b[0] ? a[0] < b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] < b[2];
}

/**
 * Whether an opcode needs a server newer than 3.5 (and so the server's version before it is sent). The 3.5 ops are
 * sent without asking: a 3.4 server answers most of them UNIMPLEMENTED on a connection it keeps, and the client
 * learns from that answer (client/server-features.ts) rather than delay every first create2 by a probe.
 */
export function needsVersion(opcode: number): boolean {
  const since = INTRODUCED.get(opcode);
  return since !== undefined && olderThan([3, 5, 9], since);
}

/** "3.8.4" from srvr's "Zookeeper version: 3.8.4-…, built on …" or envi's "zookeeper.version=3.8.4-…". */
export function parseVersion(text: string): ServerVersion | undefined {
  const m = /(?:^Zookeeper version: |^zookeeper\.version=)(\d+)\.(\d+)\.(\d+)/m.exec(text);
  if (m === null) return undefined;
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return { major, minor, patch, text: `${major}.${minor}.${patch}` };
}

/** UNIMPLEMENTED when `version` predates `opcode`; undefined when the op may be sent. */
export function refusal(opcode: number, version: ServerVersion, server: string): ZooKeeperError | undefined {
  const since = INTRODUCED.get(opcode);
  if (since === undefined) return undefined;
  const [a, b, c] = since;
  if (!olderThan([version.major, version.minor, version.patch], since)) return undefined;
  return clientError('UNIMPLEMENTED', `${server} runs ZooKeeper ${version.text}; ${opName(opcode)} needs ${a}.${b}.${c} or later (not sent)`);
}
