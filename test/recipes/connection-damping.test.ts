/**
 * Connection-event damping (Curator's CircuitBreakingConnectionStateListener): the circuit's decisions with a
 * ManualClock, event by event, and one real flapping link (fault proxy resets) whose storm a damped listener hears as
 * its first SUSPENDED and, once the circuit closes, one RECONNECTED; plus a LeaderLatch with the option.
 */

import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import type { RecipeConnectionEvent } from '../../src/recipes/common/connection.js';
import { onConnectionEvent } from '../../src/recipes/common/connection.js';
import { dampConnectionEvents, onDampedConnectionEvent } from '../../src/recipes/common/damping.js';
import { LeaderLatch } from '../../src/recipes/leader/leader-latch.js';
import type { RetryPolicy } from '../../src/session/retry-policy.js';
import { retryNTimes } from '../../src/session/retry-policy.js';
import type { StateChange } from '../../src/session/state.js';
import { ManualClock } from '../harness/manual-clock.js';
import { eventually, lockPath, useProxiedServer } from './helpers.js';

/** 1 s, then 2 s, then gives up: no jitter, so the ManualClock cases know every deadline. */
const steps: RetryPolicy = { nextDelay: (n) => [1000, 2000][n] };

function change(event: RecipeConnectionEvent, newSession = false): StateChange {
  return { from: 'connected', to: 'connecting', event, at: 0, reason: undefined, newSession };
}

function damped(retry: RetryPolicy = steps): { clock: ManualClock; heard: string[]; feed: (event: RecipeConnectionEvent, newSession?: boolean) => void; close: () => void } {
  const clock = new ManualClock();
  const heard: string[] = [];
  const d = dampConnectionEvents((event, c) => heard.push(c.newSession ? `${event}+new` : event), { retry, clock });
  return { clock, heard, feed: (event, newSession) => d.listener(event, change(event, newSession)), close: () => d.close() };
}

describe('connection damping, the circuit (ManualClock)', () => {
  it('a storm inside the circuit: the first SUSPENDED at once, the latest (RECONNECTED) once the link is up when the circuit closes', () => {
    const { clock, heard, feed } = damped();
    feed('SUSPENDED');
    expect(heard).toEqual(['SUSPENDED']);
    for (const e of ['RECONNECTED', 'SUSPENDED', 'RECONNECTED', 'SUSPENDED', 'RECONNECTED'] as const) feed(e);
    clock.advance(999);
    expect(heard).toEqual(['SUSPENDED']);
    clock.advance(1);
    expect(heard).toEqual(['SUSPENDED', 'RECONNECTED']);
    expect(clock.pending).toBe(0);
    // closed again: the next change goes through at once and opens a new circuit
    feed('SUSPENDED');
    expect(heard).toEqual(['SUSPENDED', 'RECONNECTED', 'SUSPENDED']);
  });

  it('the link still down at the close: the circuit stays open for the next delay, then closes when the policy gives up, repeating nothing', () => {
    const { clock, heard, feed } = damped();
    feed('SUSPENDED');
    feed('RECONNECTED');
    feed('SUSPENDED');
    clock.advance(1000);
    expect(heard).toEqual(['SUSPENDED']);
    expect(clock.pending).toBe(1); // the second delay (2 s)
    clock.advance(2000);
    expect(heard).toEqual(['SUSPENDED']); // SUSPENDED again: already said
    expect(clock.pending).toBe(0);
  });

  it('a LOST inside the circuit goes through at once, once; the RECONNECTED after it carries newSession even if a later one does not', () => {
    const { clock, heard, feed } = damped();
    feed('SUSPENDED');
    feed('LOST');
    feed('RECONNECTED', true);
    feed('SUSPENDED');
    feed('LOST');
    feed('RECONNECTED');
    expect(heard).toEqual(['SUSPENDED', 'LOST']);
    clock.advance(1000);
    expect(heard).toEqual(['SUSPENDED', 'LOST', 'RECONNECTED+new']);
  });

  it('a policy that allows no retry damps nothing; close() clears the circuit timer', () => {
    const none = damped({ nextDelay: () => undefined });
    for (const e of ['SUSPENDED', 'RECONNECTED', 'SUSPENDED'] as const) none.feed(e);
    expect(none.heard).toEqual(['SUSPENDED', 'RECONNECTED', 'SUSPENDED']);
    expect(none.clock.pending).toBe(0);
    const open = damped();
    open.feed('SUSPENDED');
    expect(open.clock.pending).toBe(1);
    open.close();
    expect(open.clock.pending).toBe(0);
  });
});

describe('connection damping on a flapping link', () => {
  const fx = useProxiedServer();

  it('three resets in a row: undamped, every SUSPENDED / RECONNECTED; damped, one SUSPENDED, then one RECONNECTED when the circuit closes', async () => {
    await using client = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 4000 });
    const clock = new ManualClock();
    const all: string[] = [];
    const heard: string[] = [];
    const unsubscribeAll = onConnectionEvent(client, (event) => all.push(event));
    const unsubscribe = onDampedConnectionEvent(client, (event) => heard.push(event), { retry: retryNTimes(3, 1000), clock });
    try {
      for (let i = 0; i < 3; i++) {
        fx.proxy.resetAll();
        await eventually(() => all.filter((e) => e === 'RECONNECTED').length === i + 1, 15_000, `reconnect ${i + 1}`);
      }
      expect(all).toEqual(['SUSPENDED', 'RECONNECTED', 'SUSPENDED', 'RECONNECTED', 'SUSPENDED', 'RECONNECTED']);
      expect(heard).toEqual(['SUSPENDED']);
      clock.advance(1000); // the circuit's first delay passes with the link up
      expect(heard).toEqual(['SUSPENDED', 'RECONNECTED']);
    } finally {
      unsubscribe();
      unsubscribeAll();
    }
    expect(clock.pending).toBe(0);
  });

  it('a LeaderLatch with connectionDamping gives leadership up once, at the first SUSPENDED, not on every flap of the storm', async () => {
    await using client = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 4000 });
    const clock = new ManualClock();
    const path = lockPath('damped-latch');
    await using latch = new LeaderLatch(client, path, { id: 'a', connectionDamping: { retry: retryNTimes(3, 1000), clock } });
    const events: string[] = [];
    latch.addListener((e) => events.push(e.type));
    await latch.start();
    expect(await latch.await({ timeoutMs: 10_000 })).toBe(true);
    let reconnects = 0;
    const unsubscribe = onConnectionEvent(client, (e) => void (e === 'RECONNECTED' && reconnects++));
    try {
      for (let i = 0; i < 3; i++) {
        fx.proxy.resetAll();
        await eventually(() => reconnects === i + 1, 15_000, `reconnect ${i + 1}`);
      }
    } finally {
      unsubscribe();
    }
    // the loop rejoins after the reconnect (it looks again whenever the link is back), and the flaps after the first
    // reached the latch as nothing: undamped, each would have cost leadership
    expect(await latch.await({ timeoutMs: 10_000 })).toBe(true);
    expect(events).toEqual(['isLeader', 'notLeader', 'isLeader']);
    clock.advance(1000); // the circuit closes: its RECONNECTED makes the latch look again, and it still leads
    await client.sync('/');
    expect(latch.hasLeadership()).toBe(true);
    expect(events).toEqual(['isLeader', 'notLeader', 'isLeader']);
  });
});
