/**
 * DistributedAtomicLong across a session expiry on a renewing client (issue #18): an operation waiting for its read
 * goes on on the new session and is applied once; a write on its way at the expiry is never sent again.
 */

import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { OpCode } from '../../src/protocol/opcodes.js';
import { DistributedAtomicLong, longFromBytes } from '../../src/recipes/atomic/distributed-atomic-long.js';
import { expireSession } from '../harness/expire-session.js';
import { codeOf, eventually, lockPath, useProxiedServer } from './helpers.js';
import { retryForever } from '../../src/session/retry-policy.js';

describe('DistributedAtomicLong across a session expiry', () => {
  const fx = useProxiedServer();

  const connect = (options: { renewSession?: boolean } = {}): Promise<ZooKeeperClient> =>
    ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 10_000, reconnect: retryForever(20), ...options });

  const serverValue = async (path: string): Promise<bigint> => longFromBytes((await fx.direct.getData(path)).data, path);

  it('an increment whose read is held at the expiry goes on on the new session, applied once', async () => {
    fx.proxy.pass();
    const path = lockPath('counter');
    await using client = await connect();
    const counter = new DistributedAtomicLong(client, path);
    await counter.forceSet(5);
    fx.proxy.pause();
    const increment = counter.increment();
    await expireSession(client, fx.proxy, fx.connectString);
    expect(await increment).toMatchObject({ succeeded: true, preValue: 5n, postValue: 6n });
    expect(client.sessionRenewals).toBe(1);
    expect(await serverValue(path)).toBe(6n);
    expect(await counter.increment()).toMatchObject({ succeeded: true, preValue: 6n, postValue: 7n });
  });

  it('a write on its way at the expiry rejects and is not sent again: applied at most once', async () => {
    fx.proxy.pass();
    const path = lockPath('counter');
    await using client = await connect();
    const counter = new DistributedAtomicLong(client, path);
    await counter.forceSet(5);
    // the server applies the write; its reply never reaches the client
    fx.proxy.dropReplies((frame) => frame.opcode === OpCode.setData);
    const increment = codeOf(counter.increment());
    await eventually(async () => (await serverValue(path)) === 6n, 10_000, 'the write applied on the server');
    await expireSession(client, fx.proxy, fx.connectString);
    // the outcome was unknown to the client: it says so rather than sending the write again on the new session
    expect(['SESSIONEXPIRED', 'CONNECTIONLOSS']).toContain(await increment);
    expect(await serverValue(path)).toBe(6n);
    expect(await counter.increment()).toMatchObject({ succeeded: true, preValue: 6n, postValue: 7n });
  });

  it('with renewSession: false an operation waiting at the expiry rejects with SESSIONEXPIRED', async () => {
    fx.proxy.pass();
    const path = lockPath('counter');
    await using client = await connect({ renewSession: false });
    const counter = new DistributedAtomicLong(client, path);
    await counter.forceSet(5);
    fx.proxy.pause();
    const increment = codeOf(counter.increment());
    await expireSession(client, fx.proxy, fx.connectString);
    expect(await increment).toBe('SESSIONEXPIRED');
    expect(await serverValue(path)).toBe(5n);
  });
});
