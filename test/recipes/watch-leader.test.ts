/**
 * watchLeader against a real server: following a LeaderLatch's and a LeaderSelector's leader without taking part,
 * across a session expiry of the observer, and ending cleanly (signal, break, client closed) with its watch taken back.
 */

import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { LeaderLatch } from '../../src/recipes/leader/leader-latch.js';
import { LeaderSelector } from '../../src/recipes/leader/leader-selector.js';
import { watchLeader, type LeaderObservation } from '../../src/recipes/leader/watch-leader.js';
import { retryForever } from '../../src/session/retry-policy.js';
import { expireSession } from '../harness/expire-session.js';
import { childrenOf, codeOf, eventually, lockPath, useClients, useProxiedServer, UUID } from './helpers.js';

/** The observations of one watchLeader, read one at a time with a bounded wait. */
function observe(client: ZooKeeperClient, path: string, options: Parameters<typeof watchLeader>[2] = {}) {
  const iterator = watchLeader(client, path, options)[Symbol.asyncIterator]();
  return {
    iterator,
    async next(what: string, timeoutMs = 10_000): Promise<LeaderObservation> {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no observation: ${what}`)), timeoutMs)));
      try {
        const r = await Promise.race([iterator.next(), timeout]);
        if (r.done === true) throw new Error(`the observation ended before ${what}`);
        return r.value;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** A leadership that lasts until its selector closes. */
const holdUntilClosed = (l: { signal: AbortSignal }): Promise<void> =>
  new Promise((resolve) => (l.signal.aborted ? resolve() : l.signal.addEventListener('abort', () => resolve(), { once: true })));

describe('watchLeader', () => {
  const z = useClients(3);

  it('follows a LeaderLatch: nobody before the path exists, then each leader in turn, not the queue behind it', async () => {
    const path = lockPath('observed');
    const seen = observe(z(2), path);
    expect(await seen.next('the empty election')).toEqual({ leader: { id: '', isLeader: false }, node: undefined, participants: [] });
    const a = new LeaderLatch(z(0), path, { id: 'a' });
    a.start();
    const first = await seen.next('a leads');
    expect(first.leader).toEqual({ id: 'a', isLeader: true });
    expect(first.node).toMatch(new RegExp(`^${path}/_c_${UUID}-latch-\\d{10}$`));
    expect(first.node).toBe(a.ourPath);
    const b = new LeaderLatch(z(1), path, { id: 'b' });
    b.start();
    await eventually(async () => (await childrenOf(z(2), path)).length === 2, 10_000, 'b queued');
    await a.close();
    // b queuing behind a was no change of leader: the next observation is b leading.
    const second = await seen.next('b leads');
    expect(second).toEqual({ leader: { id: 'b', isLeader: true }, node: b.ourPath, participants: [{ id: 'b', isLeader: true }] });
    await b.close();
    expect((await seen.next('nobody leads')).leader).toEqual({ id: '', isLeader: false });
    await seen.iterator.return?.();
  });

  it('follows a LeaderSelector (its lock- nodes) and lists the queue behind the leader', async () => {
    const path = lockPath('observed');
    const a = new LeaderSelector(z(0), path, holdUntilClosed, { id: 'a' });
    a.start();
    await eventually(async () => (await childrenOf(z(2), path)).length === 1, 10_000, 'a queued');
    const b = new LeaderSelector(z(1), path, holdUntilClosed, { id: 'b' });
    b.start();
    await eventually(async () => (await childrenOf(z(2), path)).length === 2, 10_000, 'b queued');
    const seen = observe(z(2), path);
    const first = await seen.next('a leads');
    expect(first.leader).toEqual({ id: 'a', isLeader: true });
    expect(first.node).toMatch(new RegExp(`^${path}/_c_${UUID}-lock-\\d{10}$`));
    expect(first.participants).toEqual([
      { id: 'a', isLeader: true },
      { id: 'b', isLeader: false },
    ]);
    await a.close();
    expect((await seen.next('b leads')).leader).toEqual({ id: 'b', isLeader: true });
    await b.close();
    await seen.iterator.return?.();
  });

  it('ends when its signal fires, and when the loop leaves: the watch it set is taken back', async () => {
    const path = lockPath('observed');
    const latch = new LeaderLatch(z(0), path, { id: 'a' });
    latch.start();
    await latch.await();
    const stop = new AbortController();
    const seen = observe(z(1), path, { signal: stop.signal });
    expect((await seen.next('a leads')).leader.id).toBe('a');
    // The server's own answer (checkWatches), not the client's bookkeeping; wchc lists only data watches.
    const watching = (): Promise<boolean> => z(1).checkWatches(path, 'children');
    expect(await watching()).toBe(true);
    stop.abort();
    expect(await seen.iterator.next()).toEqual({ done: true, value: undefined });
    await eventually(async () => !(await watching()), 10_000, 'the watch taken back after the signal');
    for await (const o of watchLeader(z(1), path)) {
      expect(o.leader.id).toBe('a');
      expect(await watching()).toBe(true);
      break;
    }
    await eventually(async () => !(await watching()), 10_000, 'the watch taken back after break');
    await latch.close();
    expect(await codeOf(watchLeader(z(1), 'relative').next())).toBe('BAD_ARGUMENT');
  });
});

describe('watchLeader across a session expiry of the observer', () => {
  const fx = useProxiedServer();

  it('reads again on the new session and reports the leader that changed meanwhile', async () => {
    fx.proxy.pass();
    const path = lockPath('observed');
    await using observer = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 10_000, reconnect: retryForever(20) });
    const a = new LeaderLatch(fx.direct, path, { id: 'a' });
    a.start();
    await a.await();
    const seen = observe(observer, path);
    expect((await seen.next('a leads')).leader.id).toBe('a');
    const sessionBefore = observer.sessionIdHex;
    fx.proxy.pause();
    // While the observer is cut off, its old session's watch cannot tell it that a left and b took over.
    await a.close();
    const b = new LeaderLatch(fx.direct, path, { id: 'b' });
    b.start();
    await b.await();
    await expireSession(observer, fx.proxy, fx.connectString);
    expect(observer.sessionIdHex).not.toBe(sessionBefore);
    expect((await seen.next('b leads, read on the new session')).leader.id).toBe('b');
    await b.close();
    expect((await seen.next('nobody leads')).leader.id).toBe('');
    await seen.iterator.return?.();
    await eventually(async () => !(await observer.checkWatches(path, 'children')), 10_000, 'the watch taken back');
  });

  it('ends quietly when the client closes', async () => {
    fx.proxy.pass();
    const path = lockPath('observed');
    const observer = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 10_000 });
    const seen = observe(observer, path);
    expect((await seen.next('the empty election')).leader.id).toBe('');
    const pending = seen.iterator.next();
    await observer.close();
    expect(await pending).toEqual({ done: true, value: undefined });
  });
});
