import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { GroupMember } from '../../src/recipes/nodes/group-member.js';
import { PersistentNode } from '../../src/recipes/nodes/persistent-node.js';
import { PersistentTtlNode } from '../../src/recipes/nodes/persistent-ttl-node.js';
import { childrenOf, codeOf, eventually, lockPath, useClients, useProxiedServer, UUID } from './helpers.js';
import { expireSession } from '../harness/expire-session.js';

const text = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes);

describe('PersistentNode, PersistentTtlNode, GroupMember', () => {
  const z = useClients(2);

  it('an ephemeral node: created, re-created when deleted, data updates, deleted on close', async () => {
    const path = `${lockPath('nodes')}/me`;
    const node = new PersistentNode(z(0), path, 'v1');
    const seen: string[] = [];
    node.addListener((e) => seen.push(e.type));
    node.start();
    expect(await node.waitForInitialCreate({ timeoutMs: 10_000 })).toBe(true);
    expect(node.getActualPath()).toBe(path);
    const stat = await z(1).exists(path);
    expect(stat?.ephemeralOwner).toBe(z(0).sessionId);
    await z(1).delete(path);
    await eventually(async () => (await z(1).exists(path))?.ephemeralOwner === z(0).sessionId, 10_000, 'recreated');
    await node.setData('v2');
    expect(text((await z(1).getData(path)).data)).toBe('v2');
    await z(1).setData(path, 'tampered'); // someone else's write is not undone, but our next setData wins
    await node.setData('v3');
    expect(text((await z(1).getData(path)).data)).toBe('v3');
    await node.close();
    expect(await z(1).exists(path)).toBeNull();
    expect(seen).toEqual(['nodeCreated', 'nodeDeleted', 'nodeCreated', 'nodeDeleted']);
  });

  it('a protected ephemeral-sequential node gets a Curator-protected name and a new one when deleted', async () => {
    const dir = lockPath('nodes');
    await using node = new PersistentNode(z(0), `${dir}/member-`, 'x', { mode: 'ephemeral-sequential' });
    node.start();
    await node.waitForInitialCreate();
    const first = node.getActualPath() as string;
    expect(first).toMatch(new RegExp(`^${dir}/_c_${UUID}-member-\\d{10}$`));
    await z(1).delete(first);
    await eventually(() => node.getActualPath() !== undefined && node.getActualPath() !== first, 10_000, 'recreated');
    expect(await childrenOf(z(1), dir)).toEqual([(node.getActualPath() as string).slice(dir.length + 1)]);
  });

  it('misuse is a typed error', async () => {
    const path = lockPath('nodes');
    const node = new PersistentNode(z(0), path);
    expect(await codeOf(node.setData('x'))).toBe('ILLEGAL_STATE');
    expect(await codeOf(node.close())).toBe('ILLEGAL_STATE');
    node.start();
    await expect(node.start()).rejects.toMatchObject({ code: 'ILLEGAL_STATE' });
    await node.close();
    expect(() => new PersistentNode(z(0), path, '', { mode: 'ttl' })).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    expect(() => new PersistentNode(z(0), path, '', { mode: 'persistent', ttlMs: 5 })).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    expect(() => new PersistentTtlNode(z(0), path, 0)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    expect(() => new GroupMember(z(0), path, 'a/b')).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
  });

  it('a persistent TTL node: a container holding the data, kept alive by a touched TTL child; both go on close', async () => {
    const path = lockPath('ttl');
    const node = new PersistentTtlNode(z(0), path, 2000, 'payload');
    node.start();
    await node.waitForInitialCreate();
    await eventually(async () => (await childrenOf(z(1), path)).includes('touch'), 10_000, 'touch child');
    const touch = await z(1).exists(`${path}/touch`);
    await eventually(async () => ((await z(1).exists(`${path}/touch`))?.mzxid ?? 0n) > (touch?.mzxid ?? 0n), 10_000, 'touched again');
    expect(text((await z(1).getData(path)).data)).toBe('payload');
    await node.close();
    expect(await z(1).exists(path)).toBeNull();
  });

  it('a persistent TTL node touches its child as soon as the container exists, not a whole period later', async () => {
    const path = lockPath('ttl');
    // touched every 60 s × 0.5: before the fix the first touch ran before the container existed, found nothing to
    // touch under, and the child came 30 s later
    await using node = new PersistentTtlNode(z(0), path, 60_000, 'payload');
    await node.start();
    await eventually(async () => (await z(1).exists(`${path}/touch`)) !== null, 5_000, 'touch child');
  });

  it('group members see each other join, change and leave', async () => {
    const group = lockPath('group');
    await using a = new GroupMember(z(0), group, 'a', 'A');
    await a.start();
    const events: string[] = [];
    a.addListener((e) => e.id === 'b' && events.push(`${e.type} ${e.id}`));
    expect([...a.getCurrentMembers().keys()]).toEqual(['a']);
    const b = new GroupMember(z(1), group, 'b', 'B');
    await b.start();
    await eventually(() => a.getCurrentMembers().size === 2, 10_000, 'a sees b');
    expect(new Map([...b.getCurrentMembers()].map(([id, data]) => [id, text(data)]))).toEqual(new Map([['a', 'A'], ['b', 'B']]));
    await b.setThisData('B2');
    await eventually(() => text(a.getCurrentMembers().get('b')) === 'B2', 10_000, 'b changed');
    await b.close();
    await eventually(() => a.getCurrentMembers().size === 1, 10_000, 'b left');
    expect(events).toEqual(['memberJoined b', 'memberChanged b', 'memberLeft b']);
  });
});

describe('PersistentNode through faults', () => {
  const fx = useProxiedServer();

  it('deleted while disconnected: created again after the reconnect, with the latest data', async () => {
    fx.proxy.pass();
    const path = `${lockPath('nodes')}/me`;
    await using client = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 10_000 });
    await using node = new PersistentNode(client, path, 'v1');
    node.start();
    await node.waitForInitialCreate();
    fx.proxy.pause();
    await eventually(() => client.state !== 'connected', 15_000, 'disconnected');
    await fx.direct.delete(path);
    const writing = node.setData('v2');
    fx.proxy.pass();
    await writing;
    await eventually(async () => text((await fx.direct.getData(path).catch(() => ({ data: new Uint8Array() }))).data) === 'v2', 15_000, 'back with v2');
    expect((await fx.direct.exists(path))?.ephemeralOwner).toBe(client.sessionId);
  });

  it('kept present across session expiry: the link frozen past the timeout, then made again on the new session', async () => {
    fx.proxy.pass();
    const path = `${lockPath('nodes')}/me`;
    await using client = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 4000 });
    await using node = new PersistentNode(client, path, 'keep');
    const seen: string[] = [];
    node.addListener((e) => seen.push(e.type));
    node.start();
    await node.waitForInitialCreate();
    const first = client.sessionId;
    fx.proxy.pause();
    await eventually(async () => (await fx.direct.exists(path)) === null, 15_000, 'the server expired the session');
    fx.proxy.pass();
    await eventually(async () => (await fx.direct.exists(path))?.ephemeralOwner === client.sessionId && client.sessionId !== first, 20_000, 'created on the new session');
    expect(text((await fx.direct.getData(path)).data)).toBe('keep');
    // Another client sees the node as soon as the server made it; the recipe reports it once the create's reply has
    // reached its own client, which may come later on a busy machine.
    await eventually(() => seen.length >= 3, 10_000, 'the second nodeCreated');
    expect(seen).toEqual(['nodeCreated', 'nodeDeleted', 'nodeCreated']);
  });

  it('a group member comes back after its session is expired, and its view of the group is current', async () => {
    fx.proxy.pass();
    const group = lockPath('group');
    await using client = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 4000 });
    await using member = new GroupMember(client, group, 'a', 'pa');
    await member.start();
    await using peer = new GroupMember(fx.direct, group, 'b', 'pb');
    await peer.start();
    await eventually(() => member.getCurrentMembers().size === 2, 10_000, 'both members seen');
    await expireSession(client, fx.proxy, fx.connectString);
    await eventually(async () => (await fx.direct.exists(`${group}/a`))?.ephemeralOwner === client.sessionId, 20_000, 'member node back');
    await eventually(() => peer.getCurrentMembers().has('a'), 10_000, 'the peer sees it again');
    expect([...member.getCurrentMembers().keys()].sort()).toEqual(['a', 'b']);
  });
});
