/**
 * The default node-data limit is what a real 3.8 server at its default jute.maxbuffer (0xfffff) accepts: a create
 * of a two-byte path with the open ACL takes at most DEFAULT_MAX_DATA_SIZE bytes. At the edge it passes; one byte
 * more is refused before sending (BAD_ARGUMENT, the connection untouched). A request whose frame would pass the
 * server's limit anyway (a longer path) is refused the same way, where the server would drop the connection —
 * shown by raising the client's limit one byte and watching the server cut the link.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_DATA_SIZE, ZooKeeperClient } from '../../src/node.js';
import { startZooKeeper, type ZkServer } from '../harness/zookeeper.js';

let server: ZkServer;
beforeAll(async () => {
  server = await startZooKeeper();
});
afterAll(async () => {
  await server?.stop();
});

/** A connected client and a record of whether it ever lost its connection. */
async function watched(options: { maxDataSize?: number } = {}) {
  const zk = await ZooKeeperClient.connect(server.connectString, options);
  const states: string[] = [];
  zk.onStateChange((c) => states.push(c.to));
  return { zk, states };
}

describe('the default data limit', () => {
  it('is 1 048 526 bytes: jute.maxbuffer less a create of a two-byte path with the open ACL', () => {
    expect(DEFAULT_MAX_DATA_SIZE).toBe(0xfffff - 49);
  });

  it('a create and a setData of a short path at the edge pass on a real server; one byte more is refused before sending', async () => {
    const { zk, states } = await watched();
    await using _ = zk;
    await zk.create('/d', new Uint8Array(DEFAULT_MAX_DATA_SIZE).fill(7));
    expect((await zk.exists('/d'))?.dataLength).toBe(DEFAULT_MAX_DATA_SIZE);
    await zk.setData('/d', new Uint8Array(DEFAULT_MAX_DATA_SIZE).fill(8));
    await expect(zk.create('/e', new Uint8Array(DEFAULT_MAX_DATA_SIZE + 1))).rejects.toMatchObject({ code: 'BAD_ARGUMENT', op: 'create', path: '/e' });
    await expect(zk.setData('/d', new Uint8Array(DEFAULT_MAX_DATA_SIZE + 1))).rejects.toMatchObject({ code: 'BAD_ARGUMENT', op: 'setData' });
    expect(await zk.exists('/e')).toBeNull();
    expect((await zk.getData('/d')).data[0]).toBe(8);
    expect(states).toEqual([]);
  });

  it('a longer path with the same data would pass the server limit: refused before sending, with the sizes', async () => {
    const { zk, states } = await watched();
    await using _ = zk;
    const e = await zk.create('/longer', new Uint8Array(DEFAULT_MAX_DATA_SIZE)).then(
      () => new Error('created'),
      (x: unknown) => x as Error,
    );
    expect(e).toMatchObject({ code: 'BAD_ARGUMENT', op: 'create' });
    expect(e.message).toMatch(/request of 1048580 bytes exceeds the server's limit of 1048575/);
    expect(await zk.exists('/longer')).toBeNull();
    expect(states).toEqual([]);
  });

  it('a multi is measured as a whole: at its edge it passes on a real server, one byte more is refused before sending', async () => {
    const { zk, states } = await watched();
    await using _ = zk;
    // multi: request header 8, per op a 9-byte MultiHeader, the closing one 9; a create of "/m" with the open ACL
    // is 41 bytes besides its data.
    const edge = 0xfffff - (8 + 9 + 41 + 9);
    await zk.multi([{ kind: 'create', path: '/m', data: new Uint8Array(edge) }]);
    expect((await zk.exists('/m'))?.dataLength).toBe(edge);
    const e = await zk.multi([{ kind: 'create', path: '/n', data: new Uint8Array(edge + 1) }]).then(
      () => new Error('sent'),
      (x: unknown) => x as Error,
    );
    expect(e).toMatchObject({ code: 'BAD_ARGUMENT', op: 'multi' });
    expect(await zk.exists('/n')).toBeNull();
    expect(states).toEqual([]);
  });

  it("the edge is the server's: raised by one byte, the request is sent and the server drops the connection", async () => {
    const { zk, states } = await watched({ maxDataSize: DEFAULT_MAX_DATA_SIZE + 1 });
    await using _ = zk;
    await expect(zk.create('/f', new Uint8Array(DEFAULT_MAX_DATA_SIZE + 1))).rejects.toMatchObject({ code: 'CONNECTIONLOSS' });
    expect(states).toContain('disconnected');
  });
});
