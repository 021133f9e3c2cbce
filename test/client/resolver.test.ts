/** The `resolver` option against a real server (Node entry): names resolved before every attempt, node:dns by default. */

import { describe, expect, it } from 'vitest';
import { nodeResolver, nodeTransport, ZooKeeperClient } from '../../src/node.js';
import { sharedServer } from '../harness/zookeeper.js';

async function sharedPort(): Promise<string> {
  const { connectString } = await sharedServer();
  return connectString.split(',')[0]?.split(':')[1] as string;
}

describe('resolver (real server)', () => {
  it('dials the address the resolver gives for a name, asking again after a failed attempt', async () => {
    const port = await sharedPort();
    const asked: string[] = [];
    // The server listens on 127.0.0.1 only: 127.0.0.2 refuses, as a member that moved away would.
    const answers = [['127.0.0.2'], ['127.0.0.1']];
    await using zk = await ZooKeeperClient.connect(`zk.invalid:${port}`, {
      sessionTimeoutMs: 10_000,
      trackEnsemble: false,
      resolver: (host) => {
        asked.push(host);
        return answers[Math.min(asked.length - 1, 1)] as string[];
      },
    });
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(asked.every((h) => h === 'zk.invalid')).toBe(true);
    expect(zk.connectedServer).toBe(`zk.invalid:${port}`);
    expect(zk.serverList).toEqual([`zk.invalid:${port}`]);
    expect(await zk.exists('/')).not.toBeNull();
  });

  it('the Node entry resolves with node:dns by default', async () => {
    expect(nodeTransport().resolver).toBe(nodeResolver);
    expect(await nodeResolver('127.0.0.1')).toEqual(['127.0.0.1']);
    expect(await nodeResolver('::1')).toEqual(['::1']);
    expect((await nodeResolver('localhost')).length).toBeGreaterThan(0);
    await expect(nodeResolver('no-such-host.invalid')).rejects.toThrow();
    const port = await sharedPort();
    await using zk = await ZooKeeperClient.connect(`localhost:${port}`, { sessionTimeoutMs: 10_000 });
    expect(await zk.exists('/')).not.toBeNull();
  });
});
