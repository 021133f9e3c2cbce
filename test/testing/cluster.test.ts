/**
 * TestingCluster: the leader found, killed, and a client on it moving to another member with its session; a paused
 * member's client moving too; members restarted on their ports.
 */

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/node.js';
import { TestingCluster } from '../../src/testing/cluster.js';
import { harnessCleanup } from '../harness/exit-cleanup.js';
import { realClock } from '../harness/real-timers.js';

/** Host-shuffle randomness that keeps the connect string's order: the client starts on the first host listed. */
const inOrder = (): number => 1 - Number.EPSILON;

let cluster: TestingCluster;
beforeAll(async () => {
  cluster = await TestingCluster.start({ size: 3, clock: realClock, cleanup: harnessCleanup() });
});
afterAll(async () => {
  await cluster?.close();
});

/** The connect string with member `first` listed first. */
function startingAt(first: number): string {
  const all = cluster.servers.map((s) => s.connectString);
  return [all[first], ...all.filter((_, i) => i !== first)].join(',');
}

describe('TestingCluster', () => {
  it('kills the leader: a client on it moves to another member with the same session, and a new leader is elected', async () => {
    const leader = await cluster.leaderIndex();
    const leaderAddress = cluster.servers[leader]!.connectString;
    await using zk = await connect(startingAt(leader), { sessionTimeoutMs: 10_000, random: inOrder });
    expect(zk.connectedServer).toBe(leaderAddress);
    const session = zk.sessionId;
    const path = `/moved-${randomUUID()}`;
    await zk.create(path, null, { mode: 'ephemeral' });

    await cluster.kill(leader);
    expect(cluster.servers[leader]!.running).toBe(false);
    const next = await cluster.leaderIndex();
    expect(next).not.toBe(leader);
    await zk.waitConnected();
    expect(zk.connectedServer).not.toBe(leaderAddress);
    expect(cluster.servers.map((s) => s.connectString)).toContain(zk.connectedServer);
    expect(zk.sessionId).toBe(session);
    expect(await zk.exists(path)).not.toBeNull();

    await cluster.restart(leader);
    expect(await cluster.leaderIndex()).toBe(next);
  });

  it('pauses a member (SIGSTOP): a client on it times out and moves; resume lets the member rejoin', async () => {
    const leader = await cluster.leaderIndex();
    const follower = leader === 0 ? 1 : 0;
    const followerAddress = cluster.servers[follower]!.connectString;
    await using zk = await connect(startingAt(follower), { sessionTimeoutMs: 4_000, random: inOrder });
    expect(zk.connectedServer).toBe(followerAddress);
    const session = zk.sessionId;

    const moved = new Promise<void>((resolve) => {
      const off = zk.onStateChange((c) => {
        if (c.event === 'RECONNECTED') {
          off();
          resolve();
        }
      });
    });
    cluster.pause(follower);
    expect(cluster.servers[follower]!.paused).toBe(true);
    expect(await cluster.leaderIndex()).toBe(leader); // the other two keep their quorum
    await moved;
    expect(zk.connectedServer).not.toBe(followerAddress);
    expect(zk.sessionId).toBe(session);

    cluster.resume(follower);
    expect(cluster.servers[follower]!.paused).toBe(false);
    expect(await cluster.leaderIndex()).toBe(leader);
  });

  it('refuses an index that is not a member, and a size that is not a positive integer', async () => {
    await expect(cluster.kill(3)).rejects.toThrow(/no cluster member #3/);
    await expect(TestingCluster.start({ size: 0 })).rejects.toThrow(RangeError);
  });
});
