/**
 * One lifecycle for every recipe that runs in the background (src/recipes/common/lifecycle.ts): the same states, a
 * start() that returns a promise resolved once the first work is in, the same misuse errors, close() and quiet
 * disposal, events that end with the recipe, and a start() nobody awaits that never turns into an unhandled
 * rejection.
 */

import { describe, expect, it } from 'vitest';
import type { ZooKeeperClient } from '../../src/node.js';
import {
  CuratorCache,
  GroupMember,
  LeaderLatch,
  LeaderSelector,
  PersistentNode,
  PersistentTtlNode,
  SharedCount,
  SharedValue,
} from '../../src/recipes/index.js';
import { lockPath, useClients } from './helpers.js';

interface Recipe extends AsyncDisposable {
  readonly state: 'LATENT' | 'STARTED' | 'CLOSED';
  start(options?: { signal?: AbortSignal }): Promise<void>;
  close(): Promise<void>;
}

/** Each background recipe, and what tells that its first work is in once start() has resolved. */
const RECIPES: readonly (readonly [string, (client: ZooKeeperClient, path: string) => { recipe: Recipe; ready: () => Promise<boolean> }])[] = [
  ['LeaderLatch', (c, p) => {
    const r = new LeaderLatch(c, p);
    return { recipe: r, ready: async () => r.ourPath !== undefined && (await c.exists(r.ourPath)) !== null };
  }],
  ['LeaderSelector', (c, p) => {
    const r = new LeaderSelector(c, p, async ({ signal }) => new Promise((resolve) => signal.addEventListener('abort', () => resolve())));
    return { recipe: r, ready: async () => r.state === 'STARTED' };
  }],
  ['PersistentNode', (c, p) => {
    const r = new PersistentNode(c, `${p}/node`, 'x');
    return { recipe: r, ready: async () => (await c.exists(`${p}/node`)) !== null };
  }],
  ['PersistentTtlNode', (c, p) => {
    const r = new PersistentTtlNode(c, `${p}/ttl`, 10_000, 'x');
    return { recipe: r, ready: async () => (await c.exists(`${p}/ttl`)) !== null };
  }],
  ['CuratorCache', (c, p) => {
    const r = new CuratorCache(c, p);
    return { recipe: r, ready: async () => r.get(p) !== undefined };
  }],
  ['GroupMember', (c, p) => {
    const r = new GroupMember(c, p, 'me');
    return { recipe: r, ready: async () => r.getCurrentMembers().has('me') };
  }],
  ['SharedValue', (c, p) => {
    const r = new SharedValue(c, `${p}/value`, 'seed');
    return { recipe: r, ready: async () => new TextDecoder().decode(r.getValue()) === 'seed' };
  }],
  ['SharedCount', (c, p) => {
    const r = new SharedCount(c, `${p}/count`, 7);
    return { recipe: r, ready: async () => r.getCount() === 7 };
  }],
];

describe('every background recipe has the same lifecycle', () => {
  const z = useClients(1);

  for (const [name, make] of RECIPES) {
    it(`${name}: LATENT, start() resolves once ready, ILLEGAL_STATE on misuse, close, quiet disposal`, async () => {
      const path = lockPath('life');
      await z(0).mkdirp(path);
      const { recipe, ready } = make(z(0), path);
      expect(recipe.state).toBe('LATENT');
      await expect(recipe.close()).rejects.toMatchObject({ code: 'ILLEGAL_STATE' });
      await recipe.start();
      expect(recipe.state).toBe('STARTED');
      expect(await ready()).toBe(true);
      await expect(recipe.start()).rejects.toMatchObject({ code: 'ILLEGAL_STATE' });
      await recipe.close();
      expect(recipe.state).toBe('CLOSED');
      await expect(recipe.close()).rejects.toMatchObject({ code: 'ILLEGAL_STATE' });
      await expect(recipe.start()).rejects.toMatchObject({ code: 'ILLEGAL_STATE' });
      await recipe[Symbol.asyncDispose](); // quiet on a closed recipe
      const never = make(z(0), path).recipe;
      await never[Symbol.asyncDispose](); // and on one never started
      expect(never.state).toBe('CLOSED');
    });

    it(`${name}: a start() nobody awaits, closed at once, settles without an unhandled rejection`, async () => {
      const path = lockPath('life');
      const { recipe } = make(z(0), path);
      const started = recipe.start(); // not awaited on purpose: closing first must not crash the process
      await recipe.close();
      const outcome = await started.then(
        () => 'ready',
        (e: { code?: string }) => e.code,
      );
      expect(['ready', 'ILLEGAL_STATE']).toContain(outcome);
    });
  }

  it('a signal stops only the wait of start(): ABORTED, and the recipe goes on starting', async () => {
    const path = lockPath('life');
    const cache = new CuratorCache(z(0), path);
    await expect(cache.start({ signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'ABORTED' });
    expect(cache.state).toBe('STARTED');
    await z(0).mkdirp(path);
    await cache.close();
  });
});
