import { describe, expect, it } from 'vitest';
import type { ZooKeeperClient } from '../../src/node.js';
import { OpTracker } from './op-tracker.js';
import { Watchdog } from './watchdog.js';

/** Just what the watchdog reads of a client, with its state changes driven by the test. */
function fakeClient(): { client: ZooKeeperClient; emit(to: string): void } {
  const listeners: ((change: { to: string }) => void)[] = [];
  let state = 'connected';
  const client = {
    get state() {
      return state;
    },
    sessionIdHex: '0x1',
    sessionRenewals: 0,
    onStateChange(listener: (change: { to: string }) => void) {
      listeners.push(listener);
      return () => undefined;
    },
  } as unknown as ZooKeeperClient;
  return {
    client,
    emit(to) {
      state = to;
      for (const l of listeners) l({ to });
    },
  };
}

describe('the chaos watchdog', () => {
  it('bounds a call that sends again per attempt: each reconnect gives it a new bound; a plain request keeps its one', () => {
    let now = 0;
    const tracker = new OpTracker(() => now);
    const dog = new Watchdog(tracker, 60_000, () => now);
    const { client, emit } = fakeClient();
    dog.watch('s0.0', client);
    tracker.track('s0.0', 'client.create', new Promise(() => undefined), { boundMs: 100, perAttempt: true });
    tracker.track('s0.0', 'client.getData', new Promise(() => undefined), { boundMs: 100 });
    now = 80;
    emit('disconnected');
    emit('connected'); // the protected create is sent again now: its bound is 180
    now = 150;
    dog.check();
    expect(dog.figures.hungOperations).toBe(1);
    expect(dog.figures.notes[0]).toMatch(/client\.getData pending for 150 ms/);
    now = 181;
    dog.check();
    expect(dog.figures.hungOperations).toBe(2);
    expect(dog.figures.notes[1]).toMatch(/client\.create pending for 181 ms \(bound 180 ms/);
  });
});
