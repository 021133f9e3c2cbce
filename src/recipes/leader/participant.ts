/**
 * Participants of an election, as Curator reports them (LeaderSelector.getParticipants): every contender's id
 * (the UTF-8 data of its node) in election order, the first one marked leader. A node that disappears while the
 * list is read is skipped, and the leader flag goes to the first node that could still be read.
 */

import type { ZooKeeperClient } from '../../client.js';
import { utf8Decode } from '../../protocol/utf8.js';
import { isCode } from '../../errors.js';
import { childrenOrEmpty, joinPath, sortSequential } from '../common/nodes.js';

/** One contender in a leader election. */
export interface Participant {
  /** The id the contender gave (Curator's participant id); '' when none was given. */
  readonly id: string;
  readonly isLeader: boolean;
}

/** What getLeader() returns when nobody contends (Curator's dummy participant). */
export const NO_LEADER: Participant = Object.freeze({ id: '', isLeader: false });

/** Every participant under `path` whose node name contains `lockName`, in election order. */
export async function readParticipants(client: ZooKeeperClient, path: string, lockName: string): Promise<Participant[]> {
  const sorted = sortSequential(await childrenOrEmpty(client, path), lockName);
  return participantsOf(
    client,
    sorted.map((child) => joinPath(path, child)),
  );
}

/** The leader among `participants`, or NO_LEADER. */
export function leaderOf(participants: readonly Participant[]): Participant {
  const first = participants[0];
  return first !== undefined && first.isLeader ? first : NO_LEADER;
}

/** The participants whose nodes are `nodes` (full paths, already in election order). */
export async function participantsOf(client: ZooKeeperClient, nodes: readonly string[]): Promise<Participant[]> {
  const participants: Participant[] = [];
  for (const id of await readIds(client, nodes)) {
    if (id !== undefined) participants.push({ id, isLeader: participants.length === 0 });
  }
  return participants;
}

/** Each node's id (its data as UTF-8), undefined for a node gone before it was read. */
export function readIds(client: ZooKeeperClient, nodes: readonly string[]): Promise<(string | undefined)[]> {
  return Promise.all(
    nodes.map((node) =>
      client.getData(node).then(
        ({ data }) => utf8Decode(data),
        (err: unknown) => {
          if (isCode(err, 'NONODE')) return undefined;
          throw err;
        },
      ),
    ),
  );
}
