import { describe, expect, it } from 'vitest';
import { READ_ACL_UNSAFE } from '../../src/client/acl.js';
import { LeaderLatch } from '../../src/recipes/leader/leader-latch.js';
import { GroupMember } from '../../src/recipes/nodes/group-member.js';
import { PersistentNode } from '../../src/recipes/nodes/persistent-node.js';
import { codeOf, eventually, lockPath, useClients } from './helpers.js';

/**
 * No recipe hangs on an error it did not expect (#26 item 5): a background recipe whose node operation fails with a
 * code no retry fixes (here NOAUTH, from a real server: the directory's ACL forbids the create) reports it as an
 * `error` event, settles start() with it, keeps its timed waits bounded, and still closes. Before, LeaderLatch's
 * start() stayed pending until close() and PersistentNode's never heard of the failure at all.
 */
describe('recipes facing an error they cannot recover from', () => {
  const z = useClients(2);

  /** A directory nobody may create under. */
  async function forbiddenDirectory(): Promise<string> {
    const dir = lockPath('readonly');
    await z(1).mkdirp(dir.slice(0, dir.lastIndexOf('/')));
    await z(1).create(dir, null, { acl: READ_ACL_UNSAFE });
    return dir;
  }

  it('LeaderLatch: error event, start() rejects NOAUTH, await({timeoutMs}) resolves false, close() settles', async () => {
    const dir = await forbiddenDirectory();
    const latch = new LeaderLatch(z(0), `${dir}/latch`);
    const errors: unknown[] = [];
    latch.addListener((e) => {
      if (e.type === 'error') errors.push(e.error);
    });
    const started = latch.start();
    expect(await codeOf(started)).toBe('NOAUTH');
    expect(errors[0]).toMatchObject({ code: 'NOAUTH' });
    expect(await latch.await({ timeoutMs: 3000 })).toBe(false);
    await latch.close();
    expect(latch.state).toBe('CLOSED');
  });

  for (const mode of ['ephemeral', 'ephemeral-sequential', 'persistent'] as const) {
    it(`PersistentNode (${mode}): error event, start() rejects NOAUTH, waitForInitialCreate({timeoutMs}) resolves false, close() settles`, async () => {
      const dir = await forbiddenDirectory();
      const node = new PersistentNode(z(0), `${dir}/node`, 'x', { mode });
      const errors: unknown[] = [];
      node.addListener((e) => {
        if (e.type === 'error') errors.push(e.error);
      });
      expect(await codeOf(node.start())).toBe('NOAUTH');
      expect(errors[0]).toMatchObject({ code: 'NOAUTH' });
      expect(await node.waitForInitialCreate({ timeoutMs: 500 })).toBe(false);
      await node.close();
      expect(node.state).toBe('CLOSED');
      expect(await z(1).getChildren(dir)).toEqual([]);
    });
  }

  it('GroupMember: start() rejects NOAUTH, close() settles', async () => {
    const dir = await forbiddenDirectory();
    const member = new GroupMember(z(0), dir, 'm1', 'x');
    expect(await codeOf(member.start())).toBe('NOAUTH');
    await member.close();
    await eventually(async () => (await z(1).getChildren(dir)).length === 0, 5000, 'no member node');
  });
});
