/**
 * The barriers across a session expiry on a renewing client (issue #18): a DistributedBarrier waiter looks again on
 * the new session; a DistributedDoubleBarrier member waiting in enter() creates its node again and goes on; an
 * entered member is out from the expiry on; nothing is left pending.
 */

import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { DistributedBarrier } from '../../src/recipes/barriers/distributed-barrier.js';
import { DistributedDoubleBarrier } from '../../src/recipes/barriers/double-barrier.js';
import { expireSession, nextChange } from '../harness/expire-session.js';
import { childrenOf, codeOf, eventually, lockPath, stillPending, useProxiedServer } from './helpers.js';
import { retryForever } from '../../src/session/retry-policy.js';

describe('barriers across a session expiry', () => {
  const fx = useProxiedServer();

  const connect = (options: { renewSession?: boolean } = {}): Promise<ZooKeeperClient> =>
    ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 10_000, reconnect: retryForever(20), ...options });

  it('DistributedBarrier: a waiter looks again on the new session: held while the barrier stands, released when it goes', async () => {
    fx.proxy.pass();
    const path = lockPath('barrier');
    await using client = await connect();
    const coordinator = new DistributedBarrier(fx.direct, path);
    await coordinator.setBarrier();
    const waiting = new DistributedBarrier(client, path).waitOnBarrier();
    const removedMeanwhile = lockPath('barrier');
    await new DistributedBarrier(fx.direct, removedMeanwhile).setBarrier();
    const waitingOnRemoved = new DistributedBarrier(client, removedMeanwhile).waitOnBarrier();
    expect(await stillPending(Promise.race([waiting, waitingOnRemoved]))).toBe(true);

    fx.proxy.pause();
    await new DistributedBarrier(fx.direct, removedMeanwhile).removeBarrier();
    const reconnected = nextChange(client, (c) => c.event === 'RECONNECTED');
    await expireSession(client, fx.proxy, fx.connectString);
    expect((await reconnected).newSession).toBe(true);
    // lowered while the waiter's session was expiring: released on the new session
    expect(await waitingOnRemoved).toBe(true);
    // still raised: waiting again, on a watch of the new session
    expect(await stillPending(waiting)).toBe(true);
    await coordinator.removeBarrier();
    expect(await waiting).toBe(true);
  });

  it('DoubleBarrier: a member waiting in enter() creates its node again on the new session, and the barrier passes', async () => {
    fx.proxy.pass();
    const path = lockPath('barrier');
    await using client = await connect();
    const member = new DistributedDoubleBarrier(client, path, 2);
    const entering = member.enter({ timeoutMs: 30_000 });
    await eventually(async () => (await childrenOf(fx.direct, path)).length === 1, 10_000, 'joined');
    const ours = member.ourPath as string;
    const oldSession = client.sessionId;
    expect((await fx.direct.exists(ours))?.ephemeralOwner).toBe(oldSession);

    await expireSession(client, fx.proxy, fx.connectString);
    // the node went with the old session and is back, the same name, owned by the new one
    await eventually(async () => {
      const stat = await fx.direct.exists(ours);
      return stat !== null && stat.ephemeralOwner === client.sessionId && client.sessionId !== oldSession;
    }, 15_000, 'our node created again on the new session');
    expect(member.state).toBe('ENTERING');

    const last = new DistributedDoubleBarrier(fx.direct, path, 2);
    expect(await last.enter({ timeoutMs: 10_000 })).toBe(true);
    expect(await entering).toBe(true);
    expect(member.state).toBe('ENTERED');
    const leaving = member.leave({ timeoutMs: 10_000 });
    expect(await last.leave({ timeoutMs: 10_000 })).toBe(true);
    expect(await leaving).toBe(true);
    expect(await childrenOf(fx.direct, path)).toEqual([]);
  });

  it('DoubleBarrier: an entered member is out from the expiry on; the others leave without it, and its leave() settles', async () => {
    fx.proxy.pass();
    const path = lockPath('barrier');
    await using client = await connect();
    const member = new DistributedDoubleBarrier(client, path, 2);
    const other = new DistributedDoubleBarrier(fx.direct, path, 2);
    expect(await Promise.all([member.enter({ timeoutMs: 10_000 }), other.enter({ timeoutMs: 10_000 })])).toEqual([true, true]);
    await expireSession(client, fx.proxy, fx.connectString);
    await client.waitConnected();
    // our node went with the old session: the other member is the last one in, and leaves at once
    expect(await other.leave({ timeoutMs: 10_000 })).toBe(true);
    expect(await member.leave({ timeoutMs: 10_000 })).toBe(true);
    expect(member.state).toBe('IDLE');
    expect(await childrenOf(fx.direct, path)).toEqual([]);
  });

  it('with renewSession: false a waiting enter() and waitOnBarrier() reject with SESSIONEXPIRED; nothing hangs', async () => {
    fx.proxy.pass();
    const path = lockPath('barrier');
    await using client = await connect({ renewSession: false });
    const member = new DistributedDoubleBarrier(client, `${path}-double`, 2);
    const entering = codeOf(member.enter());
    await new DistributedBarrier(fx.direct, path).setBarrier();
    const waiting = codeOf(new DistributedBarrier(client, path).waitOnBarrier());
    await eventually(async () => (await childrenOf(fx.direct, `${path}-double`)).length === 1, 10_000, 'joined');
    await expireSession(client, fx.proxy, fx.connectString);
    expect(await entering).toBe('SESSIONEXPIRED');
    expect(await waiting).toBe('SESSIONEXPIRED');
    expect(member.state).toBe('IDLE');
  });
});
