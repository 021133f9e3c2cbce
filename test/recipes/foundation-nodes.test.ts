import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { READ_ACL_UNSAFE, type ZooKeeperClient } from '../../src/node.js';
import { createProtectedSequential, NodeOps, sortSequential } from '../../src/recipes/common/nodes.js';
import { aborted, badArgument, recipeError, sessionEnded } from '../../src/recipes/common/errors.js';
import { InterProcessMutex } from '../../src/recipes/locks/mutex.js';
import { childrenOf, codeOf, connectClient, delay, lockPath, useClients, UUID } from './helpers.js';

/** The client with its `create` calls counted (the recipe sees an ordinary client). */
function countingCreates(client: ZooKeeperClient): { client: ZooKeeperClient; creates: () => number } {
  let creates = 0;
  const counted = new Proxy(client, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (key === 'create') {
        return (...args: unknown[]) => {
          creates++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  return { client: counted, creates: () => creates };
}

/** The promise's outcome, or 'pending' if it has not settled within `ms` (a generous bound, not a measurement). */
function settledWithin<T>(p: Promise<T>, ms: number): Promise<string> {
  return Promise.race([codeOf(p), delay(ms).then(() => 'pending')]);
}

describe('the protected create of the recipe foundation', () => {
  const z = useClients(1);

  it('throws NOAUTH at once when the parent cannot be made, with a bounded number of creates (it used to spin)', async () => {
    const root = `/t-${randomUUID()}`;
    await z(0).create(root, null);
    // Nobody may create under `closed`, so `closed/sub` can never be made: NONODE, then NOAUTH making the parent.
    await z(0).create(`${root}/closed`, null, { acl: READ_ACL_UNSAFE });
    const { client, creates } = countingCreates(z(0));
    const outcome = await settledWithin(createProtectedSequential(client, `${root}/closed/sub`, 'latch-', new Uint8Array(0)), 3000);
    expect(outcome).toBe('NOAUTH');
    // one protected create, then one ensureContainers (a create per path segment): nothing more
    expect(creates()).toBeLessThanOrEqual(5);
    expect(await childrenOf(z(0), `${root}/closed`)).toEqual([]);
  });

  it('an abort stops it and takes the request back: ABORTED, and no node is left', async () => {
    const dir = `/t-${randomUUID()}/dir`;
    const stop = new AbortController();
    const creating = createProtectedSequential(z(0), dir, 'lock-', new Uint8Array(0), 'ephemeral-sequential', undefined, { signal: stop.signal });
    stop.abort();
    expect(await codeOf(creating)).toBe('ABORTED');
    // the background search runs behind the create on this session: a later request sees its outcome
    await z(0).sync('/');
    for (let i = 0; i < 50 && (await childrenOf(z(0), dir)).length > 0; i++) await delay(20);
    expect(await childrenOf(z(0), dir)).toEqual([]);
  });

  it('makes the parent as containers and lists it in the same write when asked', async () => {
    const dir = `/t-${randomUUID()}/a/b`;
    const ops = new NodeOps(z(0));
    const node = await ops.createProtected(dir, 'lock-', new Uint8Array(0), undefined, { list: true });
    expect(node.path).toMatch(new RegExp(`^${dir}/_c_${UUID}-lock-0000000000$`));
    expect(node.stat.ephemeralOwner).toBe(z(0).sessionId);
    expect(node.children).toEqual([node.path.slice(dir.length + 1)]);
    const stat = await z(0).exists(dir);
    expect(stat?.ephemeralOwner).toBe(0n);
    await ops.guaranteedDelete(node.path);
  });
});

describe('sortSequential: Curator order, and creation order after the 2^31 wrap', () => {
  const u = (i: number): string => `_c_0000000${i}-0000-0000-0000-000000000000-`;

  it('is Curator text order (the part after the name) for sequences that have not wrapped', () => {
    const names = [`${u(1)}latch-0000000010`, `${u(2)}latch-0000000002`, `${u(3)}latch-2147483647`, `${u(4)}latch-0000000009`];
    const curator = [...names].sort((a, b) => {
      const ka = a.slice(a.lastIndexOf('latch-') + 6);
      const kb = b.slice(b.lastIndexOf('latch-') + 6);
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
    expect(sortSequential(names, 'latch-')).toEqual(curator);
  });

  it('keeps creation order when the signed counter wraps (text order would put the newest first)', () => {
    // ZooKeeper prints the signed int with %010d: after 2147483647 come -2147483648, -2147483647, …
    const oldest = `${u(1)}latch-2147483646`;
    const older = `${u(2)}latch-2147483647`;
    const newer = `${u(3)}latch--2147483648`;
    const newest = `${u(4)}latch--2147483647`;
    expect(sortSequential([newest, older, newer, oldest], 'latch-')).toEqual([oldest, older, newer, newest]);
  });

  it('keeps creation order when the counter passes -1 back to 0', () => {
    const a = `${u(1)}latch--000000002`;
    const b = `${u(2)}latch--000000001`;
    const c = `${u(3)}latch-0000000000`;
    expect(sortSequential([c, b, a], 'latch-')).toEqual([a, b, c]);
  });
});

describe('the recipe error factory', () => {
  it('names a closed client CLOSED, never SESSIONEXPIRED', () => {
    expect(sessionEnded({ state: 'closed' }, 'acquire', '/a')).toMatchObject({ code: 'CLOSED', op: 'acquire', path: '/a' });
    expect(sessionEnded({ state: 'auth-failed' }, 'acquire').code).toBe('AUTHFAILED');
    expect(sessionEnded({ state: 'expired' }, 'acquire').code).toBe('SESSIONEXPIRED');
  });

  it('builds ABORTED one way: the caller’s ZooKeeperError reason as it is, anything else as the cause', () => {
    const own = recipeError('TIMEOUT', 'acquire', '/a');
    expect(aborted(AbortSignal.abort(own), 'acquire', '/a')).toBe(own);
    const plain = aborted(AbortSignal.abort('why'), 'acquire', '/a');
    expect(plain).toMatchObject({ code: 'ABORTED', op: 'acquire', path: '/a', message: 'ABORTED (acquire /a)', cause: 'why' });
    expect(badArgument('acquire', '/a', 'no').message).toBe('BAD_ARGUMENT (acquire /a): no');
  });

  it('a lock on a client that is closed: the lease is lost with CLOSED, a new acquire rejects with CLOSED', async () => {
    const client = await connectClient();
    const path = lockPath();
    const mutex = new InterProcessMutex(client, path, { lockLost: 'lost' });
    const lease = await mutex.acquire();
    await client.close();
    expect(lease.signal.reason).toMatchObject({ code: 'CLOSED' });
    expect(await codeOf(mutex.acquire())).toBe('CLOSED');
    await lease.release();
  });
});
