/** Data near and over jute.maxbuffer, chroot clients, and the read-only flag of a standalone server. */

import { expect } from 'vitest';
import { codeOf, dec } from '../../client/helpers.js';
import { DEFAULT_MAX_DATA_SIZE, Op, type StateChange } from '../../../src/node.js';
import type { Topic } from '../suite.js';
import { event } from '../watch-event.js';

export const limitCases: Topic = {
  title: 'limits, chroot and read-only',
  define(c) {
    c('data of the largest size the client sends is stored and read back whole', async (t) => {
      const zk = await t.client();
      // The client's limit is computed for a create of a two-byte path (see src/client/request-size.ts).
      const path = '/d';
      await zk.create(path, new Uint8Array(DEFAULT_MAX_DATA_SIZE).fill(7));
      const { data, stat } = await zk.getData(path);
      expect(stat.dataLength).toBe(DEFAULT_MAX_DATA_SIZE);
      expect(data.length).toBe(DEFAULT_MAX_DATA_SIZE);
      expect(data[DEFAULT_MAX_DATA_SIZE - 1]).toBe(7);
      await zk.delete(path);
    });

    c('one byte more is refused by the client before sending, and the connection stays', async (t) => {
      const zk = await t.client();
      const changes: StateChange[] = [];
      zk.onStateChange((change) => changes.push(change));
      const path = t.path();
      expect(await codeOf(zk.create(path, new Uint8Array(DEFAULT_MAX_DATA_SIZE + 1)))).toBe('BAD_ARGUMENT');
      expect(await zk.exists(path)).toBeNull();
      expect(changes).toEqual([]);
    });

    c("past the server's jute.maxbuffer, the server drops the connection and applies nothing", async (t) => {
      const zk = await t.client({ maxDataSize: 2 * DEFAULT_MAX_DATA_SIZE });
      const path = t.path();
      expect(await codeOf(zk.create(path, new Uint8Array(DEFAULT_MAX_DATA_SIZE + 100)))).toBe('CONNECTIONLOSS');
      await zk.waitConnected();
      expect(await zk.exists(path)).toBeNull();
    });

    c('a node with a thousand children lists and counts them all', async (t) => {
      const zk = await t.client();
      const root = t.path();
      await zk.create(root);
      const names = Array.from({ length: 1000 }, (_, i) => `child-with-a-longish-name-${i}`);
      for (let i = 0; i < names.length; i += 250) await zk.multi(names.slice(i, i + 250).map((n) => Op.create(`${root}/${n}`)));
      expect((await zk.getChildren(root)).sort()).toEqual([...names].sort());
      expect((await zk.exists(root))?.numChildren).toBe(1000);
      expect(await zk.getAllChildrenNumber(root)).toBe(1000);
    });

    c('a chroot client: paths in and out are relative, the nodes live under the chroot', async (t) => {
      const plain = await t.client();
      const root = t.path();
      await plain.create(root);
      const zk = await t.client({ chroot: root });
      expect(await zk.create('/a', 'x')).toBe('/a');
      expect(await zk.create('/s-', null, { mode: 'persistent-sequential' })).toBe('/s-0000000001');
      expect(dec((await plain.getData(`${root}/a`)).data)).toBe('x');
      expect((await zk.getChildren('/')).sort()).toEqual(['a', 's-0000000001']);
      const results = await zk.multi([Op.create('/m'), Op.delete('/m')]);
      expect(results[0]).toMatchObject({ type: 'create', path: '/m' });
    });

    c('a chroot client gets events and ephemerals with relative paths', async (t) => {
      const plain = await t.client();
      const root = t.path();
      await plain.create(root);
      const zk = await t.client({ chroot: root });
      const { watch } = await zk.exists('/e', { watch: true });
      const recursive = await zk.addWatch('/', { mode: 'persistent-recursive' });
      await plain.create(`${root}/e`);
      expect(await watch).toEqual(event('NodeCreated', '/e'));
      expect(await recursive.next()).toEqual(event('NodeCreated', '/e'));
      await zk.create('/mine', null, { mode: 'ephemeral' });
      expect(await zk.getEphemerals()).toEqual(['/mine']);
      await recursive.close();
    });

    c('a chroot that does not exist: reads give NONODE and creates fail, until it is made', async (t) => {
      const plain = await t.client();
      const root = t.path();
      const zk = await t.client({ chroot: root });
      expect(await codeOf(zk.getData('/'))).toBe('NONODE');
      expect(await codeOf(zk.create('/a'))).toBe('NONODE');
      await plain.create(root);
      expect(await zk.create('/a')).toBe('/a');
    });

    c('a standalone server is not read-only, even to a client that accepts read-only servers', async (t) => {
      const zk = await t.client({ canBeReadOnly: true });
      expect(zk.state).toBe('connected');
      const path = t.path();
      await zk.create(path);
      expect(await zk.exists(path)).not.toBeNull();
    });
  },
};
