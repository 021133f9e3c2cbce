/**
 * The hostile server over real loopback sockets and the Node transport (real time, short timeouts): scripted lies
 * give typed errors and reconnects, and a seeded random run leaves no uncaught exception, no unhandled rejection and
 * no unsettled call.
 */

import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { ZooKeeperError } from '../../src/errors.js';
import { HostileServer, type ReplyAct } from './engine/hostile-server.js';
import { listenHostile } from './engine/net-server.js';
import { Prng } from '../harness/prng.js';
import { trapCrashes } from './crash-trap.js';
import { retryForever } from '../../src/session/retry-policy.js';

const crashes = trapCrashes();

async function settle(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return e instanceof ZooKeeperError ? e.code : `untyped: ${String(e)}`;
  }
}

describe('hostile server over node:net', () => {
  for (const act of ['garbage', 'over-limit', 'wrong-xid', 'lying-length', 'truncated-body', 'mutated'] as const) {
    it(`${act}: the call gets a typed error or its value, the client reconnects, the next call succeeds`, async () => {
      let lie = true;
      const server = new HostileServer(new Prng(3), {
        clientMaxFrameSize: 4096,
        plan: { reply: (): ReplyAct => (lie ? ((lie = false), act) : 'ok') },
      });
      const net = await listenHostile(server);
      try {
        const zk = await ZooKeeperClient.connect(net.connectString, { sessionTimeoutMs: 3000, maxFrameSize: 4096, reconnect: retryForever(5) });
        const first = await settle(zk.getData('/a'));
        expect(first === 'ok' || !first.startsWith('untyped')).toBe(true);
        expect(await settle(zk.getData('/a'))).toBe('ok');
        await zk.close();
        expect(server.clientViolations).toEqual([]);
      } finally {
        await net.close();
      }
      expect(crashes).toEqual([]);
    });
  }

  it('a seeded random run: every call settles typed, close() leaves the client closed, nothing crashes', async () => {
    const server = new HostileServer(new Prng(11), { clientMaxFrameSize: 8192, exclude: ['silent', 'ping-xid', 'auth-xid', 'timeout-tiny', 'timeout-huge'] });
    const net = await listenHostile(server);
    const outcomes: string[] = [];
    try {
      const zk = new ZooKeeperClient(net.connectString, { sessionTimeoutMs: 2000, maxFrameSize: 8192, reconnect: retryForever(5) });
      const calls: Promise<void>[] = [];
      for (let i = 0; i < 120; i++) {
        calls.push(settle(i % 3 === 0 ? zk.create(`/n${i}`, 'x') : i % 3 === 1 ? zk.getData('/a', { watch: true }) : zk.getChildren('/')).then((o) => void outcomes.push(o)));
        if (i % 10 === 0) await new Promise((r) => setTimeout(r, 20));
      }
      await Promise.all(calls);
      await zk.close();
      expect(['closed', 'expired', 'auth-failed']).toContain(zk.state);
    } finally {
      await net.close();
    }
    expect(outcomes).toHaveLength(120);
    expect(outcomes.filter((o) => o.startsWith('untyped'))).toEqual([]);
    expect(server.connections).toBeGreaterThan(1);
    expect(server.clientViolations).toEqual([]);
    expect(crashes).toEqual([]);
  });
});
