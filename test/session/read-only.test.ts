/**
 * Read-only mode on a real 3-member ensemble whose servers allow it (readonlymode.enabled): with two members down,
 * a canBeReadOnly client is served read-only by the survivor; once the two are back, the session moves to a
 * read-write server and writes work. Everything waits on the client's state changes, never on a clock.
 */

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { FAST_START_JVM_FLAGS } from '../../src/testing/local-server/index.js';
import { probeServerMode } from '../../src/testing/local-server/four-letter-client.js';
import { sleep } from '../harness/real-timers.js';
import { startFaultProxy } from '../harness/fault-proxy.js';
import { startEnsemble, type ZkEnsemble } from '../harness/zookeeper.js';
import { codeOf, dec, uniquePath } from '../client/helpers.js';
import { nextChange } from '../harness/expire-session.js';
import { retryForever } from '../../src/session/retry-policy.js';

let ensemble: ZkEnsemble;

beforeAll(async () => {
  ensemble = await startEnsemble(3, {
    jvmFlags: [...FAST_START_JVM_FLAGS, '-Dreadonlymode.enabled=true'],
    // A read-only server can only make local sessions (a global one needs a quorum to commit it).
    extraConfig: { localSessionsEnabled: 'true', localSessionsUpgradingEnabled: 'true' },
  });
}, 120_000);

afterAll(async () => {
  await ensemble?.close();
});

// A test that failed with members down must not leave the next one without a quorum.
afterEach(async () => {
  const down = ensemble.servers.flatMap((s, i) => (s.running ? [] : [i]));
  await Promise.all(down.map((i) => ensemble.restart(i)));
});


/** Kills every member but the leader and waits until that survivor serves read-only; returns its index and the others. */
async function leaveOneReadOnly(): Promise<{ survivor: number; others: number[]; host: string; port: number }> {
  const survivor = await ensemble.leaderIndex();
  const others = [0, 1, 2].filter((i) => i !== survivor);
  await Promise.all(others.map((i) => ensemble.kill(i)));
  const s = ensemble.servers[survivor];
  if (s === undefined) throw new Error('no survivor');
  // It keeps serving read-write until it notices the lost quorum (syncLimit), then starts its read-only server.
  while ((await probeServerMode(s.host, s.port, 1000)) !== 'read-only') await sleep(200);
  return { survivor, others, host: s.host, port: s.port };
}

describe('read-only mode', () => {
  it('serves reads from a read-only survivor, then moves the session to a read-write server when the quorum is back', async () => {
    const path = uniquePath('ro');
    {
      await using writer = await ZooKeeperClient.connect(ensemble.connectString, { sessionTimeoutMs: 10_000 });
      await writer.create(path, 'before');
    }
    const { others, host, port } = await leaveOneReadOnly();

    // The survivor starts serving read-only a couple of seconds after it lost its quorum: connect() waits for it.
    await using zk = await ZooKeeperClient.connect(ensemble.connectString, {
      sessionTimeoutMs: 10_000,
      connectTimeoutMs: 60_000,
      canBeReadOnly: true,
      reconnect: retryForever(100),
    });
    // Every state change from here on, said in the failure message of the assertions that could follow one.
    const changes: string[] = [];
    zk.onStateChange((c) => changes.push(`${c.to}:${c.event ?? ''} (${c.reason?.message ?? ''}) on ${zk.connectedServer ?? '-'}`));
    expect(zk.state).toBe('connected-read-only');
    expect(zk.connectedServer).toBe(`${host}:${port}`);
    expect(dec((await zk.getData(path)).data)).toBe('before');
    expect(await codeOf(zk.setData(path, 'during')), changes.join(' > ')).toBe('NOTREADONLY');
    // Reads pipelined ahead of a write: the survivor refuses the write at once, often ahead of the reads' replies,
    // and the client takes that refusal for what it is, not for a broken stream.
    const reads = Array.from({ length: 2000 }, () => zk.getData(path));
    expect(await codeOf(zk.setData(path, 'during')), changes.join(' > ')).toBe('NOTREADONLY');
    for (const read of await Promise.all(reads)) expect(dec(read.data)).toBe('before');
    expect(changes).toEqual([]);

    const readWrite = nextChange(zk, (c) => c.to === 'connected' || c.to === 'expired' || c.to === 'closed');
    await Promise.all(others.map((i) => ensemble.restart(i)));
    const change = await readWrite;
    expect(change.to, changes.join(' > ')).toBe('connected');
    expect(zk.state).toBe('connected');
    // The session made on the read-only server is one no read-write server knows: moving gave it a new one (as the
    // Java client does) instead of being told it expired.
    expect(change.event).toBe('RECONNECTED');
    await zk.setData(path, 'after');
    expect(dec((await zk.getData(path)).data)).toBe('after');
    await zk.delete(path);
  }, 120_000);

  it('finds a read-write server with isro while its read-only link stays up, and moves there', async () => {
    const path = uniquePath('ro');
    {
      await using writer = await ZooKeeperClient.connect(ensemble.connectString, { sessionTimeoutMs: 10_000 });
      await writer.create(path, 'before');
    }
    const { survivor, others, host, port } = await leaveOneReadOnly();
    // The survivor behind a proxy: once the others are back it leaves read-only mode and closes its clients, and
    // the proxy holds that close back, so only the client's own search can explain a move to read-write.
    const proxy = await startFaultProxy({ host, port });
    try {
      const hosts = ensemble.servers.map((s, i) => (i === survivor ? proxy.connectString : `${s.host}:${s.port}`));
      await using zk = await ZooKeeperClient.connect(hosts.join(','), {
        // The longest session a default server grants (20 ticks): its read timeout (2/3 of it) is the other way this
        // link could end while the proxy holds everything back, and the search must come first.
        sessionTimeoutMs: 40_000,
        connectTimeoutMs: 60_000,
        canBeReadOnly: true,
        reconnect: retryForever(100),
      });
      expect(zk.state).toBe('connected-read-only');
      expect(zk.connectedServer).toBe(proxy.connectString);
      proxy.delay(120_000);

      const lost = nextChange(zk, (c) => c.to === 'disconnected');
      const readWrite = nextChange(zk, (c) => c.to === 'connected' || c.to === 'expired' || c.to === 'closed');
      await Promise.all(others.map((i) => ensemble.restart(i)));
      expect((await lost).reason?.message).toMatch(/moving from read-only .* to read-write/);
      expect((await readWrite).to).toBe('connected');
      expect(zk.connectedServer).not.toBe(proxy.connectString);
      await zk.setData(path, 'after');
      await zk.delete(path);
    } finally {
      await proxy.close();
    }
  }, 120_000);
});
