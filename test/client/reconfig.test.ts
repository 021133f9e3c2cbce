/**
 * reconfig(client, change) on a real 3-member ensemble with dynamic reconfiguration enabled: remove a member and add it
 * back, incrementally and in bulk, conditional on the configuration version, and check getConfig each time. The
 * servers allow reconfig to a superuser only (superDigest), as ZooKeeper's reconfig guide sets it up.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconfig, ZooKeeperClient } from '../../src/node.js';
import { startReconfigEnsemble } from '../harness/reconfig-ensemble.js';
import type { ZkEnsemble } from '../harness/zookeeper.js';
import { codeOf, dec } from './helpers.js';

const SUPER = 'super:reconfig-secret';
let ensemble: ZkEnsemble;

beforeAll(async () => {
  ensemble = await startReconfigEnsemble(SUPER);
}, 120_000);

afterAll(async () => {
  await ensemble?.close();
});

interface Config {
  readonly servers: Map<string, string>;
  readonly version: string;
}

function parseConfig(text: string): Config {
  const servers = new Map<string, string>();
  let version = '';
  for (const line of text.split('\n')) {
    const server = /^server\.(\d+)=/.exec(line);
    if (server !== null) servers.set(server[1] as string, line);
    const v = /^version=([0-9a-f]+)$/.exec(line);
    if (v !== null) version = v[1] as string;
  }
  return { servers, version };
}

describe('reconfig', () => {
  it('removes a member and adds it back, incrementally and in bulk, as getConfig shows', async () => {
    await using zk = await ZooKeeperClient.connect(ensemble.connectString, { sessionTimeoutMs: 10_000, authInfo: [{ scheme: 'digest', auth: SUPER }] });
    const config = async (): Promise<Config> => parseConfig(dec((await zk.getConfig()).data));
    const start = await config();
    expect([...start.servers.keys()].sort()).toEqual(['1', '2', '3']);
    // Remove a member the session is not on, and not the leader (removing it hands leadership over, and the members
    // drop their clients while they follow the new leader), so the session itself is undisturbed.
    const onPort = zk.connectedServer?.split(':')[1];
    const leaderPort = ensemble.servers[await ensemble.leaderIndex()]?.port;
    const [id, line] = [...start.servers].find(([, l]) => !l.endsWith(`:${onPort}`) && !l.endsWith(`:${leaderPort}`)) as [string, string];

    const removed = parseConfig(dec((await reconfig(zk, { leaving: [Number(id)] })).data));
    expect([...removed.servers.keys()]).not.toContain(id);
    expect(removed.servers.size).toBe(2);
    expect(removed.version).not.toBe(start.version);
    expect(await config()).toEqual(removed);

    // Conditional on the version it replaces: a stale one is refused, the current one applies.
    expect(await codeOf(reconfig(zk, { joining: line, fromConfig: start.version }))).toBe('BADVERSION');
    const back = parseConfig(dec((await reconfig(zk, { joining: line, fromConfig: removed.version })).data));
    expect(back.servers.get(id)).toBe(line);
    expect(await config()).toEqual(back);

    // Bulk: the whole new membership at once.
    const others = [...back.servers].filter(([sid]) => sid !== id).map(([, l]) => l);
    const bulk = parseConfig(dec((await reconfig(zk, { newMembers: others })).data));
    expect([...bulk.servers.keys()].sort()).toEqual([...removed.servers.keys()].sort());
    const whole = parseConfig(dec((await reconfig(zk, { newMembers: [...others, line] })).data));
    expect([...whole.servers.keys()].sort()).toEqual(['1', '2', '3']);
    expect(await config()).toEqual(whole);
  });

  it('refuses a session without the superuser identity, and bad arguments before sending', async () => {
    await using zk = await ZooKeeperClient.connect(ensemble.connectString, { sessionTimeoutMs: 10_000 });
    expect(await codeOf(reconfig(zk, { leaving: [1] }))).toBe('NOAUTH');
    expect(await codeOf(reconfig(zk, { leaving: [1], newMembers: ['server.1=127.0.0.1:1:2;3'] }))).toBe('BAD_ARGUMENT');
    expect(await codeOf(reconfig(zk, {}))).toBe('BAD_ARGUMENT');
    expect(await codeOf(reconfig(zk, { leaving: [1], fromConfig: 'not-hex' }))).toBe('BAD_ARGUMENT');
    expect(await codeOf(reconfig({} as ZooKeeperClient, { leaving: [1] }))).toBe('BAD_ARGUMENT');
  });
});
