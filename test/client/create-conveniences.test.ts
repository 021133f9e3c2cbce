/**
 * create's conveniences (issue #28 items 2 and 3) against a real server: `parents`, `orSetData`, `protected` (a
 * reply dropped by the fault proxy), the client's `containers: false` and its `aclProvider`, the recipes included.
 */

import { describe, expect, it } from 'vitest';
import { Perms, type ACL } from '../../src/client/acl.js';
import { usingNamespace } from '../../src/client/namespace.js';
import { OpCode } from '../../src/protocol/opcodes.js';
import { ZooKeeperClient } from '../../src/node.js';
import { InterProcessMutex } from '../../src/recipes/locks/mutex.js';
import { useProxiedServer } from '../recipes/helpers.js';
import { codeOf, connectShared, dec, uniquePath } from './helpers.js';

const world = (perms: number): ACL[] => [{ perms, id: { scheme: 'world', id: 'anyone' } }];

describe('create with parents and the ACL provider', () => {
  it('makes the missing parents, each with the ACL the provider gives for its own path', async () => {
    const root = uniquePath('parents');
    // Every path gets its own permissions, so each node shows which path the provider was asked for.
    const perms = new Map([
      [root, Perms.ALL],
      [`${root}/a`, Perms.ALL & ~Perms.DELETE],
      [`${root}/a/b`, Perms.READ | Perms.CREATE | Perms.ADMIN],
    ]);
    const asked: string[] = [];
    await using c = await connectShared({
      aclProvider: (path) => {
        asked.push(path);
        const p = perms.get(path);
        return p === undefined ? undefined : world(p);
      },
    });
    const made = await c.create(`${root}/a/b`, 'leaf', { parents: true, stat: true });
    expect(made.path).toBe(`${root}/a/b`);
    expect(asked.sort()).toEqual([root, `${root}/a`, `${root}/a/b`]); // once each (the node's first: it is checked first)
    for (const [path, p] of perms) expect((await c.getACL(path)).acl, path).toEqual(world(p));
    expect(dec((await c.getData(`${root}/a/b`)).data)).toBe('leaf');
    // Parents that exist are left alone (their NODEEXISTS is fine) and nothing of theirs changes.
    await c.create(`${root}/a/other`, null, { parents: true });
    expect((await c.getACL(`${root}/a`)).acl).toEqual(world(Perms.ALL & ~Perms.DELETE));
    // A path the provider does not know gets the client's defaultAcl.
    await c.create(`${root}/x`, null);
    expect((await c.getACL(`${root}/x`)).acl).toEqual(world(Perms.ALL));
  });

  it('under a namespace the provider sees the path with the namespace in front, as Curator passes it', async () => {
    const ns = uniquePath('ns').slice(1);
    const asked: string[] = [];
    await using c = await connectShared({ aclProvider: (path) => void asked.push(path) });
    await usingNamespace(c, ns).create('/a/b', null, { parents: true });
    expect(asked.sort()).toEqual([`/${ns}`, `/${ns}/a`, `/${ns}/a/b`]);
    await c.deleteRecursive(`/${ns}`);
  });

  it('a parent that cannot be made says why instead of NONODE', async () => {
    const root = uniquePath('parents');
    await using c = await connectShared();
    await c.create(root, null, { acl: world(Perms.READ) });
    const failure = c.create(`${root}/a/b`, null, { parents: true });
    expect(await codeOf(failure)).toBe('NOAUTH');
  });

  it("a mutex's nodes get the provider's ACL", async () => {
    const root = uniquePath('mutex');
    const acl = world(Perms.ALL & ~Perms.ADMIN);
    await using c = await connectShared({ aclProvider: (path) => (path.startsWith(root) ? acl : undefined) });
    const lease = await new InterProcessMutex(c, `${root}/lock`).acquire();
    if (!lease.acquired) throw new Error('not acquired');
    for (const path of [root, `${root}/lock`, lease.node]) expect((await c.getACL(path)).acl, path).toEqual(acl);
    await lease.release();
  });
});

describe('containers', () => {
  const fx = useProxiedServer();

  /**
   * The request opcodes of the creates `run` makes through the proxy, as the server answered them. A container's
   * Stat cannot tell (the server shows its ephemeralOwner as 0) and the server removes an empty one only after
   * its check interval (60 s), so the ops on the wire are what shows a container.
   */
  async function createOps(run: (client: ZooKeeperClient) => Promise<unknown>, options: { containers?: boolean } = {}): Promise<string[]> {
    fx.proxy.pass();
    await using client = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 10_000, ...options });
    const seen: string[] = [];
    const names = new Map<number, string>([[OpCode.create, 'create'], [OpCode.create2, 'create2'], [OpCode.createContainer, 'createContainer']]);
    fx.proxy.dropReplies((frame) => {
      const name = names.get(frame.opcode ?? -1);
      if (name !== undefined) seen.push(name);
      return false;
    });
    try {
      await run(client);
    } finally {
      fx.proxy.pass();
    }
    return seen;
  }

  it("parents: 'containers' makes containers, and with the client's containers: false persistent nodes", async () => {
    const root = uniquePath('containers');
    const acl = world(Perms.ALL & ~Perms.ADMIN);
    expect(await createOps((c) => c.create(`${root}/p/q`, null, { parents: 'containers', acl }))).toEqual(['createContainer', 'createContainer', 'create']);
    // An explicit acl goes to the parents too.
    expect((await fx.direct.getACL(`${root}/p`)).acl).toEqual(acl);
    expect(await createOps((c) => c.create(`${root}/r/s`, null, { parents: 'containers' }), { containers: false })).toEqual(['create', 'create', 'create']);
    // mkdirp is the same create: its containers follow the option too.
    expect(await createOps((c) => c.mkdirp(`${root}/m/n`, { containers: true }), { containers: false })).toEqual(['create', 'create', 'create']);
    await fx.direct.deleteRecursive(root);
  });

  it("a mutex's directories are containers by default, persistent with containers: false", async () => {
    for (const containers of [true, false]) {
      const root = uniquePath('mutex');
      const ops = await createOps(async (c) => {
        const lease = await new InterProcessMutex(c, `${root}/lock`).acquire();
        await lease.release();
      }, { containers });
      const dir = containers ? 'createContainer' : 'create';
      // The lock node's create2 fails NONODE at first; then the directories, then the lock node again.
      expect(ops).toEqual(['create2', dir, dir, 'create2']);
      // A persistent directory outlives its last child (a container would be removed by the server).
      if (!containers) expect(await fx.direct.getChildren(`${root}/lock`)).toEqual([]);
      await fx.direct.deleteRecursive(root);
    }
  });
});

describe('create orSetData', () => {
  it('creates a missing node, and sets the data of an existing one', async () => {
    const path = uniquePath('or-set');
    await using c = await connectShared();
    const first = await c.create(path, 'one', { orSetData: true, stat: true });
    expect(first.path).toBe(path);
    expect(first.stat.version).toBe(0);
    const second = await c.create(path, 'two', { orSetData: true, stat: true });
    expect(second.path).toBe(path);
    expect(second.stat.version).toBe(1);
    expect(second.stat.czxid).toBe(first.stat.czxid);
    expect(dec((await c.getData(path)).data)).toBe('two');
    expect(await c.create(path, 'three', { orSetData: true })).toBe(path);
    expect(dec((await c.getData(path)).data)).toBe('three');
  });

  it('refuses names that never exist already, and a protection id that is no uuid', async () => {
    await using c = await connectShared();
    const path = uniquePath('bad');
    expect(await codeOf(c.create(path, 'x', { orSetData: true, mode: 'persistent-sequential' }))).toBe('BAD_ARGUMENT');
    expect(await codeOf(c.create(path, 'x', { orSetData: true, protected: true }))).toBe('BAD_ARGUMENT');
    expect(await codeOf(c.create(path, 'x', { protected: 'not-a-uuid' }))).toBe('BAD_ARGUMENT');
    expect(await codeOf(connectShared({ aclProvider: [] as never }))).toBe('BAD_ARGUMENT');
    expect(await c.exists(path)).toBeNull();
  });
});

describe('create protected', () => {
  const fx = useProxiedServer();

  for (const [mode, opcode] of [
    ['ephemeral-sequential', OpCode.create],
    ['persistent', OpCode.create2],
  ] as const) {
    it(`a ${mode} create whose reply is dropped is found again, not made twice`, async () => {
      fx.proxy.pass();
      const c = fx.direct;
      await using viaProxy = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 10_000 });
      const dir = uniquePath('protected');
      await c.create(dir, null);
      let dropped = 0;
      fx.proxy.dropReplies((frame) => frame.opcode === opcode && dropped++ === 0);
      const withStat = opcode === OpCode.create2;
      const creating = withStat
        ? viaProxy.create(`${dir}/node-`, 'mine', { mode, protected: true, stat: true }).then((r) => r.path)
        : viaProxy.create(`${dir}/node-`, 'mine', { mode, protected: true });
      // The reply after the dropped one is out of order: the client drops the link, and the create's outcome is
      // unknown to it (CONNECTIONLOSS inside the call).
      const behind = viaProxy.exists('/');
      expect(await codeOf(behind)).toBe('CONNECTIONLOSS');
      const made = await creating;
      fx.proxy.pass();
      expect(dropped).toBe(1); // no second create: the node was found by its prefix
      const children = await c.getChildren(dir);
      expect(children).toEqual([made.slice(dir.length + 1)]);
      expect(made).toMatch(new RegExp(`^${dir}/_c_[0-9a-f-]{36}-node-`));
      expect(dec((await c.getData(made)).data)).toBe('mine');
      await c.deleteRecursive(dir);
    });
  }
});
