/**
 * SharedValue and SharedCount across a session expiry on a renewing client (issue #18): the value is read again on
 * the new session, with one change event for what was written during the outage, and followed from then on.
 */

import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { countToBytes, SharedCount } from '../../src/recipes/shared/shared-count.js';
import { SharedValue, type SharedValueEvent } from '../../src/recipes/shared/shared-value.js';
import { expireSession } from '../harness/expire-session.js';
import { eventually, lockPath, useProxiedServer } from './helpers.js';
import { retryForever } from '../../src/session/retry-policy.js';

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** `changed:<value>` or `LOST` / `RECONNECTED` / `SUSPENDED`. */
function show(e: SharedValueEvent): string {
  return e.type === 'valueChanged' ? `changed:${text(e.value.value)}` : e.event;
}

describe('SharedValue / SharedCount across a session expiry', () => {
  const fx = useProxiedServer();

  const connect = (): Promise<ZooKeeperClient> =>
    ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 10_000, reconnect: retryForever(20) });

  it('SharedValue: writes made during the outage arrive as one valueChanged on the new session; it goes on following', async () => {
    fx.proxy.pass();
    const path = lockPath('value');
    await using client = await connect();
    await using value = new SharedValue(client, path, 'v0');
    await value.start();
    const heard: string[] = [];
    value.addListener((e) => heard.push(show(e)));

    fx.proxy.pause();
    for (const v of ['v1', 'v2', 'v3']) await fx.direct.setData(path, v);
    await expireSession(client, fx.proxy, fx.connectString);

    await eventually(() => text(value.getValue()) === 'v3', 15_000, 'the value written during the outage');
    expect(value.getVersionedValue().version).toBe(3);
    expect(heard.filter((h) => h.startsWith('changed:'))).toEqual(['changed:v3']);
    // the connection events, in order, LOST before the change (SUSPENDED first when the client saw the link go)
    expect(heard.filter((h) => h !== 'SUSPENDED')).toEqual(['LOST', 'RECONNECTED', 'changed:v3']);
    expect(client.sessionRenewals).toBe(1);

    // its new watch is on the new session: a later write is heard, and writes from here go through
    await fx.direct.setData(path, 'v4');
    await eventually(() => heard.at(-1) === 'changed:v4', 10_000, 'a write after the renewal');
    await value.setValue('mine');
    expect(text((await fx.direct.getData(path)).data)).toBe('mine');
    expect(await value.trySetValue(value.getVersionedValue(), 'mine2')).toBe(true);
  });

  it('SharedValue: nothing written during the outage, no valueChanged', async () => {
    fx.proxy.pass();
    const path = lockPath('value');
    await using client = await connect();
    await using value = new SharedValue(client, path, 'same');
    await value.start();
    const heard: string[] = [];
    value.addListener((e) => heard.push(show(e)));
    await expireSession(client, fx.proxy, fx.connectString);
    await eventually(() => heard.includes('RECONNECTED'), 15_000, 'RECONNECTED');
    // the re-read on the new session is answered before a write made after it: the write is the only change heard
    await fx.direct.setData(path, 'after');
    await eventually(() => heard.at(-1) === 'changed:after', 10_000, 'the write after the renewal');
    expect(heard.filter((h) => h.startsWith('changed:'))).toEqual(['changed:after']);
  });

  it('SharedCount: the count set during the outage, one countChanged; a start() at the expiry finishes on the new session', async () => {
    fx.proxy.pass();
    const path = lockPath('count');
    await using client = await connect();
    await using count = new SharedCount(client, path, 0);
    await count.start();
    const counts: number[] = [];
    count.addListener((e) => e.type === 'countChanged' && counts.push(e.value.value));
    fx.proxy.pause();
    for (let i = 1; i <= 3; i++) await fx.direct.setData(path, countToBytes(i * 10));
    // a second count on the same client starting while the link is held: its reads are owed by the expiring session
    await using late = new SharedCount(client, path, 99);
    const starting = late.start();
    await expireSession(client, fx.proxy, fx.connectString);
    await starting;
    expect(late.getCount()).toBe(30);
    await eventually(() => count.getCount() === 30, 15_000, 'the count written during the outage');
    expect(counts).toEqual([30]);
    expect(count.getVersionedValue()).toEqual({ version: 3, value: 30 });
    expect(await count.trySetCount(count.getVersionedValue(), 31)).toBe(true);
    await eventually(() => late.getCount() === 31, 10_000, 'the other count follows on the new session');
  });
});
