import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fourLetterWord, parseServerMode, type ServerMode } from '../../src/testing/local-server/four-letter-client.js';
import { startEnsemble, type ZkEnsemble } from './zookeeper.js';

/** What each member says about itself right now (null = down or not serving). */
async function modes(ensemble: ZkEnsemble): Promise<(ServerMode | null)[]> {
  return Promise.all(
    ensemble.servers.map(async (s) => {
      try {
        return parseServerMode(await fourLetterWord(s.host, s.port, 'srvr', 2000));
      } catch {
        return null;
      }
    }),
  );
}

describe('3-server ensemble', () => {
  let ensemble: ZkEnsemble;
  beforeAll(async () => {
    ensemble = await startEnsemble(3);
  });
  afterAll(async () => {
    await ensemble?.close();
  });

  it('starts three members on distinct loopback ports with exactly one leader', async () => {
    const ports = ensemble.servers.map((s) => s.port);
    expect(new Set(ports).size).toBe(3);
    expect(ensemble.connectString).toBe(ports.map((p) => `127.0.0.1:${p}`).join(','));
    const now = await modes(ensemble);
    expect(now.filter((m) => m === 'leader')).toHaveLength(1);
    expect(now.filter((m) => m === 'follower')).toHaveLength(2);
    expect(now.indexOf('leader')).toBe(await ensemble.leaderIndex());
  });

  it('elects a new leader among the other two when the leader is killed, and takes it back as a follower', async () => {
    const oldLeader = await ensemble.leaderIndex();
    await ensemble.kill(oldLeader);
    const newLeader = await ensemble.leaderIndex();
    expect(newLeader).not.toBe(oldLeader);
    const afterKill = await modes(ensemble);
    expect(afterKill[oldLeader]).toBeNull();
    expect(afterKill.filter((m) => m === 'leader')).toHaveLength(1);
    expect(afterKill.filter((m) => m === 'follower')).toHaveLength(1);

    await ensemble.restart(oldLeader);
    expect(await ensemble.leaderIndex()).toBe(newLeader);
    expect((await modes(ensemble))[oldLeader]).toBe('follower');
  });

  it('rejects an index that is not a member', async () => {
    await expect(ensemble.kill(3)).rejects.toThrow(/no cluster member #3/);
  });
});
