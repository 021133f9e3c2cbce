/**
 * A client made with the bare constructor (no connect() to wait on) against servers that never answer: once a
 * connect attempt to every host has failed, the calls queued meanwhile fail with CONNECTIONLOSS, as the Java
 * client's, instead of waiting until close(). The "servers" are fault proxies in front of a real one, paused:
 * they accept the TCP connection and never say a word.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy.js';
import { sharedServer } from '../harness/zookeeper.js';
import { errorOf } from '../client/helpers.js';
import { CountingTransport } from './counting.js';

const proxies: FaultProxy[] = [];

afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

async function silentServers(n: number): Promise<FaultProxy[]> {
  const [host = '', port = ''] = (await sharedServer()).connectString.split(',')[0]?.split(':') ?? [];
  for (let i = 0; i < n; i++) {
    const proxy = await startFaultProxy({ host, port: Number(port) });
    proxy.pause();
    proxies.push(proxy);
  }
  return proxies;
}

describe('queued calls when no server answers', () => {
  it('fail with CONNECTIONLOSS once every host has been tried, then the client keeps trying', async () => {
    const silent = await silentServers(2);
    const transport = new CountingTransport();
    // 2 hosts and a 2 s session timeout: each attempt may take 1 s before it is given up.
    await using zk = new ZooKeeperClient(silent.map((p) => p.connectString).join(','), { sessionTimeoutMs: 2000, transport });
    const queued = [zk.getData('/'), zk.create('/never', null), zk.addAuth('digest', 'a:b')];
    const errors = await Promise.all(queued.map(errorOf));
    expect(errors.map((e) => e.code)).toEqual(['CONNECTIONLOSS', 'CONNECTIONLOSS', 'CONNECTIONLOSS']);
    expect(errors[0]?.op).toBe('getData');
    expect(transport.opened).toBeGreaterThanOrEqual(2);
    expect(zk.state).toBe('connecting');

    // The session is not over: once a server answers, new calls go through.
    for (const p of silent) p.resume();
    expect(await zk.exists('/')).not.toBeNull();
  });
});
