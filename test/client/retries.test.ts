/**
 * Retries on every call, idempotent writes, guaranteed delete and requestTimeoutMs, against the shared real server
 * through a fault proxy of each test's own. A reply is "lost" by the proxy swallowing it: the client's
 * requestTimeoutMs then fails the call with REQUESTTIMEOUT and drops the link, the session resumes on a new one, and
 * the retry meets what its first attempt did on the server.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import type { ClientOptions } from '../../src/client/types.js';
import { retryForever, retryNTimes } from '../../src/session/retry-policy.js';
import type { StateChange } from '../../src/session/state.js';
import { startFaultProxy, type FaultProxy } from '../harness/fault-proxy.js';
import { sharedServer } from '../harness/zookeeper.js';
import { connectShared, dec, errorOf, uniquePath } from './helpers.js';
import { nextChange } from '../harness/expire-session.js';

const CREATES = [1, 15, 19, 21];
const SET_DATA = 5;
const GET_DATA = 4;

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const x of opened.splice(0).reverse()) await x.close();
});

/** A client through a fresh proxy in front of the shared server, and a plain one to look at the server with. */
async function rig(options: ClientOptions = {}): Promise<{ proxy: FaultProxy; zk: ZooKeeperClient; direct: ZooKeeperClient; changes: StateChange[] }> {
  const [host = '', port = ''] = (await sharedServer()).connectString.split(',')[0]?.split(':') ?? [];
  const proxy = await startFaultProxy({ host, port: Number(port) });
  opened.push(proxy);
  const zk = await ZooKeeperClient.connect(proxy.connectString, { sessionTimeoutMs: 10_000, reconnect: retryForever(20), trackEnsemble: false, ...options });
  opened.push(zk);
  const direct = await connectShared();
  opened.push(direct);
  const changes: StateChange[] = [];
  zk.onStateChange((c) => changes.push(c));
  return { proxy, zk, direct, changes };
}

/** Swallows the first reply the predicate matches, then passes everything. */
function dropFirst(proxy: FaultProxy, match: (opcode: number | undefined) => boolean): { readonly dropped: number } {
  const seen = { dropped: 0 };
  proxy.dropReplies((frame) => {
    if (frame.xid <= 0 || !match(frame.opcode) || seen.dropped > 0) return false;
    seen.dropped++;
    return true;
  });
  return seen;
}


// Long enough that no reply of a loaded machine's server misses it, short enough to keep each test near a second.
const REQUEST_TIMEOUT_MS = 800;
/** The server goes away: the link is cut and every new one hangs (until `proxy.pass()`). */
async function serverAway(proxy: FaultProxy, zk: ZooKeeperClient): Promise<void> {
  const away = nextChange(zk, (c) => c.to === 'disconnected');
  proxy.pause();
  proxy.resetAll();
  await away;
}

const LOST_ONCE: ClientOptions = { requestTimeoutMs: REQUEST_TIMEOUT_MS, retry: retryNTimes(5, 20) };

describe('a create whose reply is lost', () => {
  it('settles as created, once, when idempotent: the node holds our data at version 0', async () => {
    const { proxy, zk, direct, changes } = await rig(LOST_ONCE);
    const path = uniquePath('idem-create');
    const seen = dropFirst(proxy, (op) => op !== undefined && CREATES.includes(op));
    expect(await zk.create(path, 'mine', { idempotent: true })).toBe(path);
    expect(seen.dropped).toBe(1);
    // The reply was lost for real: the link was dropped and the session resumed on another one.
    expect(changes.map((c) => c.to)).toEqual(['disconnected', 'connected']);
    const { data, stat } = await direct.getData(path);
    expect([dec(data), stat.version]).toEqual(['mine', 0]);
  });

  it('settles as created for an ephemeral owned by this session', async () => {
    const { proxy, zk, direct } = await rig(LOST_ONCE);
    const path = uniquePath('idem-ephemeral');
    const seen = dropFirst(proxy, (op) => op !== undefined && CREATES.includes(op));
    const created = await zk.create(path, 'mine', { mode: 'ephemeral', idempotent: true, stat: true });
    expect(seen.dropped).toBe(1);
    expect(created.path).toBe(path);
    expect(created.stat.ephemeralOwner).toBe(zk.sessionId);
    expect((await direct.exists(path))?.ephemeralOwner).toBe(zk.sessionId);
  });

  it('is reported NODEEXISTS, after 2 attempts, when not idempotent', async () => {
    const { proxy, zk, direct } = await rig(LOST_ONCE);
    const path = uniquePath('plain-create');
    const seen = dropFirst(proxy, (op) => op !== undefined && CREATES.includes(op));
    const err = await errorOf(zk.create(path, 'mine'));
    expect(seen.dropped).toBe(1);
    expect(err.code).toBe('NODEEXISTS');
    expect(err.message).toMatch(/2 attempts/);
    expect(dec((await direct.getData(path)).data)).toBe('mine');
  });

  it('is not settled as ours when someone else made the node with other data', async () => {
    const { direct, zk } = await rig({ retry: retryNTimes(5, 20) });
    const path = uniquePath('theirs');
    await direct.create(path, 'theirs');
    // No lost reply: the first attempt's NODEEXISTS is the answer, never read back.
    const err = await errorOf(zk.create(path, 'mine', { idempotent: true }));
    expect([err.code, err.message]).toEqual(['NODEEXISTS', expect.not.stringMatching(/attempts/)]);
  });
});

describe('a versioned setData whose reply is lost', () => {
  it('does not apply twice: the retry gets BADVERSION, and the node went one version on', async () => {
    const { proxy, zk, direct } = await rig(LOST_ONCE);
    const path = uniquePath('set-versioned');
    await direct.create(path, 'v0');
    const seen = dropFirst(proxy, (op) => op === SET_DATA);
    const err = await errorOf(zk.setData(path, 'v1', { version: 0 }));
    expect(seen.dropped).toBe(1);
    expect([err.code, err.message]).toEqual(['BADVERSION', expect.stringMatching(/2 attempts/)]);
    const { data, stat } = await direct.getData(path);
    expect([dec(data), stat.version]).toEqual(['v1', 1]);
  });

  it('settles with the new stat when idempotent', async () => {
    const { proxy, zk, direct } = await rig(LOST_ONCE);
    const path = uniquePath('set-idempotent');
    await direct.create(path, 'v0');
    dropFirst(proxy, (op) => op === SET_DATA);
    const stat = await zk.setData(path, 'v1', { version: 0, idempotent: true });
    expect(stat.version).toBe(1);
    expect((await direct.exists(path))?.version).toBe(1);
  });

  it('an unversioned setData is not sent again unless idempotent', async () => {
    const { proxy, zk } = await rig(LOST_ONCE);
    const path = uniquePath('set-unversioned');
    await zk.create(path, 'v0');
    dropFirst(proxy, (op) => op === SET_DATA);
    const err = await errorOf(zk.setData(path, 'v1'));
    expect([err.code, err.message]).toEqual(['REQUESTTIMEOUT', expect.not.stringMatching(/attempts/)]);
  });
});

describe('deletes', () => {
  it('an idempotent delete whose reply is lost settles as deleted', async () => {
    const { proxy, zk, direct } = await rig(LOST_ONCE);
    const path = uniquePath('idem-delete');
    await direct.create(path);
    dropFirst(proxy, (op) => op === 2);
    await zk.delete(path, { idempotent: true });
    expect(await direct.exists(path)).toBeNull();
  });

  it('a guaranteed delete made while the server is away happens once it is back', async () => {
    const { proxy, zk, direct } = await rig({ sessionTimeoutMs: 6000 });
    const path = uniquePath('guaranteed');
    await direct.create(path);
    await serverAway(proxy, zk);
    const deleting = zk.delete(path, { guaranteed: true });
    const back = nextChange(zk, (c) => c.to === 'connected');
    proxy.pass();
    await back;
    await deleting;
    expect(await direct.exists(path)).toBeNull();
  });

  it('a guaranteed delete queued when the session expires is made on the next session', async () => {
    const { proxy, zk, direct } = await rig();
    const path = uniquePath('guaranteed-renewal');
    await direct.create(path);
    await serverAway(proxy, zk);
    // The session ends on the server meanwhile (as Curator's KillSession does it).
    const killer = await ZooKeeperClient.connect((await sharedServer()).connectString, { sessionId: zk.sessionId, sessionPassword: zk.sessionPassword, renewSession: false });
    await killer.close();
    // Queued with no link: the handshake that comes back reports the expiry, which fails it with SESSIONEXPIRED.
    const deleting = zk.delete(path, { guaranteed: true });
    const lost = nextChange(zk, (c) => c.event === 'LOST');
    proxy.pass();
    await lost;
    await deleting;
    expect(zk.sessionRenewals).toBe(1);
    expect(await direct.exists(path)).toBeNull();
  });

  it('a guaranteed delete of a missing node is done', async () => {
    const { zk } = await rig();
    await zk.delete(uniquePath('never-was'), { guaranteed: true });
  });

  it('close() waits a bounded time for a guaranteed delete still owed; it then rejects with CLOSED naming its path', async () => {
    const { proxy, zk, direct } = await rig({ closeTimeoutMs: 300 });
    const path = uniquePath('owed');
    await direct.create(path);
    await serverAway(proxy, zk);
    const deleting = errorOf(zk.delete(path, { guaranteed: true }));
    await zk.close();
    const err = await deleting;
    expect([err.code, err.op, err.path]).toEqual(['CLOSED', 'delete', path]);
    expect(await direct.exists(path)).not.toBeNull();
  });
});

describe('retry limits', () => {
  it('stops when the policy gives up, saying how many attempts were made', async () => {
    const { proxy, zk } = await rig({ requestTimeoutMs: REQUEST_TIMEOUT_MS, retry: retryNTimes(2, 10) });
    const path = uniquePath('gives-up');
    await zk.create(path);
    proxy.dropReplies((frame) => frame.opcode === GET_DATA);
    const err = await errorOf(zk.getData(path));
    expect([err.code, err.message]).toEqual(['REQUESTTIMEOUT', expect.stringMatching(/3 attempts/)]);
  });

  it('never retries past the call signal: ABORTED with the attempts made', async () => {
    const { proxy, zk, changes } = await rig({ requestTimeoutMs: REQUEST_TIMEOUT_MS, retry: retryForever(10) });
    const path = uniquePath('deadline');
    await zk.create(path);
    proxy.dropReplies((frame) => frame.opcode === GET_DATA);
    const deadline = new AbortController();
    // The deadline passes once two attempts have been lost (two links dropped), not after some time.
    const off = zk.onStateChange(() => {
      if (changes.filter((c) => c.to === 'disconnected').length >= 2) deadline.abort();
    });
    const err = await errorOf(zk.getData(path, { signal: deadline.signal }));
    off();
    expect(err.code).toBe('ABORTED');
    expect(err.message).toMatch(/[23] attempts/);
  });

  it('noRetry for the call overrides the client policy', async () => {
    const { proxy, zk } = await rig(LOST_ONCE);
    const path = uniquePath('no-retry');
    await zk.create(path);
    dropFirst(proxy, (op) => op === GET_DATA);
    const err = await errorOf(zk.getData(path, { retry: { nextDelay: () => undefined } }));
    expect([err.code, err.message]).toEqual(['REQUESTTIMEOUT', expect.not.stringMatching(/attempts/)]);
  });
});

describe('requestTimeoutMs', () => {
  it('fails an unanswered call with REQUESTTIMEOUT, drops the link (its other calls: CONNECTIONLOSS), and reconnects', async () => {
    const { proxy, zk, changes } = await rig({ requestTimeoutMs: REQUEST_TIMEOUT_MS });
    const path = uniquePath('request-timeout');
    await zk.create(path, 'x');
    // Every reply is held back: one behind the swallowed one would break the wire order and drop the link at once.
    proxy.dropReplies((frame) => frame.xid > 0);
    const stuck = errorOf(zk.getData(path));
    const behind = errorOf(zk.exists(path));
    const reconnected = nextChange(zk, (c) => c.to === 'connected');
    expect((await stuck).code).toBe('REQUESTTIMEOUT');
    expect((await behind).code).toBe('CONNECTIONLOSS');
    await reconnected;
    expect(changes.map((c) => c.to)).toEqual(['disconnected', 'connected']);
    expect((changes[0]?.reason as { code?: string } | undefined)?.code).toBe('REQUESTTIMEOUT');
    proxy.dropReplies(() => false);
    expect(dec((await zk.getData(path)).data)).toBe('x');
  });

  it('a retry option that is not a RetryPolicy is refused with BAD_ARGUMENT, on the client and on a call', async () => {
    const { connectString } = await sharedServer();
    expect(() => new ZooKeeperClient(connectString, { retry: 3 as never })).toThrow(/retry must be a RetryPolicy/);
    const { zk } = await rig();
    const err = await errorOf(zk.getData('/', { retry: {} as never }));
    expect([err.code, err.message]).toEqual(['BAD_ARGUMENT', expect.stringMatching(/retry must be a RetryPolicy/)]);
  });

  it('is refused unless a positive number of milliseconds', async () => {
    const { connectString } = await sharedServer();
    expect(() => new ZooKeeperClient(connectString, { requestTimeoutMs: 0 })).toThrow(/requestTimeoutMs/);
  });
});
