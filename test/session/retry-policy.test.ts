/**
 * The retry vocabulary (session/retry-policy.ts): one back-off computation behind every preset, and the session's
 * reconnect loop asking a policy (it may give up, which ends the client).
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { ZooKeeperError } from '../../src/errors.js';
import { ZooKeeperClient } from '../../src/node.js';
import { exponentialBackoff, noRetry, retryForever, retryNTimes, retryUntilElapsed } from '../../src/session/retry-policy.js';
import type { StateChange } from '../../src/session/state.js';
import { startFaultProxy } from '../harness/fault-proxy.js';
import { sharedServer, type SharedServer } from '../harness/zookeeper.js';
import { codeOf } from '../client/helpers.js';

describe('exponentialBackoff', () => {
  it('doubles up to the ceiling, the upper half random', () => {
    const low = exponentialBackoff({ baseDelayMs: 100, maxDelayMs: 1000, maxRetries: 10, random: () => 0 });
    const high = exponentialBackoff({ baseDelayMs: 100, maxDelayMs: 1000, maxRetries: 10, random: () => 0.999999 });
    expect([0, 1, 2, 3, 4, 5].map((n) => low.nextDelay(n, 0))).toEqual([50, 100, 200, 400, 500, 500]);
    const highs = [0, 1, 2, 3, 4, 5].map((n) => high.nextDelay(n, 0) as number);
    expect(highs.map((d) => Math.round(d))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it('stops after maxRetries', () => {
    const policy = exponentialBackoff({ maxRetries: 3, random: () => 0.5 });
    expect(policy.nextDelay(2, 0)).toBeTypeOf('number');
    expect(policy.nextDelay(3, 0)).toBeUndefined();
  });

  it('stops once maxElapsedMs has passed and never sleeps past it', () => {
    const policy = exponentialBackoff({ baseDelayMs: 1000, maxDelayMs: 1000, maxElapsedMs: 1500, random: () => 0.5 });
    expect(policy.nextDelay(0, 0)).toBe(750);
    expect(policy.nextDelay(1, 1000)).toBe(500);
    expect(policy.nextDelay(2, 1500)).toBeUndefined();
  });

  it('refuses nonsense bounds with BAD_ARGUMENT', () => {
    expect(() => exponentialBackoff({ baseDelayMs: 10, maxDelayMs: 5 })).toThrowError(
      expect.objectContaining({ code: 'BAD_ARGUMENT' }) as Error,
    );
    expect(() => exponentialBackoff({ maxRetries: -1 })).toThrow(ZooKeeperError);
  });

  it('noRetry never retries', () => {
    expect(noRetry.nextDelay(0, 0)).toBeUndefined();
  });
});

describe('the presets', () => {
  it('retryNTimes: n retries, each within [delay/2, delay]', () => {
    const policy = retryNTimes(2, 100);
    for (const n of [0, 1]) {
      const d = policy.nextDelay(n, 0) as number;
      expect(d).toBeGreaterThanOrEqual(50);
      expect(d).toBeLessThanOrEqual(100);
    }
    expect(policy.nextDelay(2, 0)).toBeUndefined();
  });

  it('retryUntilElapsed: any count, until the time is spent, never sleeping past it', () => {
    const policy = retryUntilElapsed(1000, 400);
    expect(policy.nextDelay(1_000_000, 0)).toBeLessThanOrEqual(400);
    expect(policy.nextDelay(3, 900)).toBeLessThanOrEqual(100);
    expect(policy.nextDelay(3, 1000)).toBeUndefined();
  });

  it('retryForever: never gives up, never grows', () => {
    const policy = retryForever(50);
    expect(policy.nextDelay(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)).toBeLessThanOrEqual(50);
  });
});

describe('the reconnect option', () => {
  let server: SharedServer;
  beforeAll(async () => {
    server = await sharedServer();
  });

  it('a policy that gives up ends the client, closed with CONNECTIONLOSS; calls fail, nothing hangs', async () => {
    const proxy = await startFaultProxy({ host: server.host, port: server.port });
    try {
      const zk = await ZooKeeperClient.connect(proxy.connectString, { sessionTimeoutMs: 10_000, reconnect: noRetry });
      const closed = new Promise<StateChange>((resolve) => zk.onStateChange((c) => c.to === 'closed' && resolve(c)));
      proxy.resetAll();
      const change = await closed;
      expect((change.reason as ZooKeeperError).code).toBe('CONNECTIONLOSS');
      expect(change.reason?.message).toMatch(/no server reachable: 0 connect attempt/);
      expect(zk.state).toBe('closed');
      expect(await codeOf(zk.getData('/'))).toBe('CONNECTIONLOSS');
      await zk.close();
    } finally {
      await proxy.close();
    }
  });

  it('retryNTimes(n) gives up after n passes over the hosts that find no server', async () => {
    const proxy = await startFaultProxy({ host: server.host, port: server.port });
    const zk = await ZooKeeperClient.connect(proxy.connectString, { sessionTimeoutMs: 10_000, reconnect: retryNTimes(2, 20) });
    const closed = new Promise<StateChange>((resolve) => zk.onStateChange((c) => c.to === 'closed' && resolve(c)));
    await proxy.close();
    const change = await closed;
    // two retries, so two connect attempts after the link ended (one host: each attempt is a pass), then no more
    expect(change.reason?.message).toMatch(/no server reachable: 2 connect attempt/);
    await zk.close();
  });
});
