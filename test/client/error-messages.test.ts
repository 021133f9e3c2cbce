/**
 * Error messages read once and say what to do: the code is never repeated (the ZooKeeperError constructor owns
 * the `CODE …` prefix), a missing chroot is named, TTL modes on a server without extended types say what to
 * enable, and a `signal` that is not an AbortSignal is BAD_ARGUMENT before anything is sent.
 */

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aborted } from '../../src/recipes/common/errors.js';
import { clientError, ZooKeeperError, withContext } from '../../src/errors.js';
import { ZooKeeperClient } from '../../src/node.js';
import { sharedServer, startZooKeeper, type ZkServer } from '../harness/zookeeper.js';

const repeatsCode = (e: ZooKeeperError): boolean => e.message.split(e.code).length > 2;

describe('ZooKeeperError messages', () => {
  it('carry the code exactly once, however they were built', () => {
    const made = [
      new ZooKeeperError('ABORTED', 'ABORTED: interrupted'),
      new ZooKeeperError('ABORTED', 'interrupted'),
      new ZooKeeperError('ABORTED', ''),
      new ZooKeeperError('CONNECTIONLOSS', 'CONNECTIONLOSS (lock /a)'),
      clientError('CONNECTIONLOSS', 'link dropped', { op: 'getData', path: '/a' }),
      withContext(clientError('CONNECTIONLOSS', 'link dropped'), 'lock', '/a'),
      aborted(AbortSignal.abort(new ZooKeeperError('ABORTED', 'ABORTED: interrupted')), 'acquire'),
      aborted(AbortSignal.abort('why'), 'acquire'),
    ];
    for (const e of made) {
      expect(e.message.startsWith(e.code), e.message).toBe(true);
      expect(repeatsCode(e), e.message).toBe(false);
    }
    expect(made[0]!.message).toBe('ABORTED: interrupted');
    expect(made[1]!.message).toBe('ABORTED: interrupted');
    expect(made[2]!.message).toBe('ABORTED');
    expect(made[5]!.message).toBe('CONNECTIONLOSS (lock /a): link dropped');
  });
});

describe('messages from a real server', () => {
  let connectString: string;
  let noTtl: ZkServer;
  beforeAll(async () => {
    connectString = (await sharedServer()).connectString;
    noTtl = await startZooKeeper({ extraConfig: { extendedTypesEnabled: 'false' } });
  });
  afterAll(async () => {
    await noTtl?.stop();
  });

  it('a missing chroot names the chroot', async () => {
    const chroot = `/t-${randomUUID()}/app`;
    await using zk = await ZooKeeperClient.connect(`${connectString}${chroot}`);
    const e = await zk.getChildren('/').catch((x: unknown) => x as ZooKeeperError);
    expect(e).toMatchObject({ code: 'NONODE', op: 'getChildren', path: '/' });
    expect((e as Error).message).toContain(`the chroot ${chroot} does not exist`);
    const deeper = await zk.getData('/x').catch((x: unknown) => x as ZooKeeperError);
    expect((deeper as Error).message).toContain(`${chroot}/x`);
  });

  it('an error from a reply has a stack of one line, the message (its frames would all be the client receive path), and leaves the engine setting as it was', async () => {
    await using zk = await ZooKeeperClient.connect(connectString);
    const e = await zk.getData(`/t-${randomUUID()}`).catch((x: unknown) => x as ZooKeeperError);
    expect(e).toMatchObject({ code: 'NONODE', op: 'getData' });
    expect((e as Error).stack).toBe(`ZooKeeperError: ${(e as Error).message}`);
    expect(new Error('x').stack).toMatch(/\n\s+at /);
    expect(clientError('ABORTED', 'gone').stack).toMatch(/\n\s+at /);
  });

  it('TTL modes on a server without extended types say what to enable', async () => {
    await using zk = await ZooKeeperClient.connect(noTtl.connectString);
    for (const mode of ['ttl', 'ttl-sequential'] as const) {
      const e = await zk.create(`/t-${randomUUID()}`, null, { mode, ttl: 1000 }).catch((x: unknown) => x as ZooKeeperError);
      expect(e).toMatchObject({ code: 'UNIMPLEMENTED', op: 'create' });
      expect((e as Error).message).toContain('extendedTypesEnabled=true');
    }
    // the session is unharmed
    expect(await zk.exists('/')).toBeDefined();
  });

  it('a signal that is not an AbortSignal is BAD_ARGUMENT, and nothing is sent', async () => {
    await using zk = await ZooKeeperClient.connect(connectString);
    const path = `/t-${randomUUID()}`;
    for (const signal of [{}, 'abort', 1, null]) {
      await expect(zk.create(path, 'x', { signal: signal as unknown as AbortSignal })).rejects.toMatchObject({ code: 'BAD_ARGUMENT', op: 'create' });
    }
    expect(await zk.exists(path)).toBeNull();
  });
});
