/**
 * The host provider without a server: ZooKeeper's rebalancing rule as a table (planRebalance), the spread it gives
 * many clients (a seeded random source, so each case is exact), and the order of attempts during and after a move.
 */

import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../../src/transport/types.js';
import { endpointKey, HostProvider, planRebalance } from '../../src/session/host-provider.js';
import { Prng } from '../harness/prng.js';

const hosts = (...ports: number[]): Endpoint[] => ports.map((port) => ({ host: '10.0.0.1', port }));
const at = (port: number): Endpoint => ({ host: '10.0.0.1', port });
const keys = (list: readonly Endpoint[]): string[] => list.map(endpointKey).sort();

describe('planRebalance', () => {
  // [case, before, after, mine, random, move, pAdded]
  const cases: [string, number[], number[], number, number, boolean, number][] = [
    ['grown, mine stays, draw below 1 - 3/5: moves to an added one', [1, 2, 3], [1, 2, 3, 4, 5], 1, 0.39, true, 1],
    ['grown, mine stays, draw at 1 - 3/5: stays', [1, 2, 3], [1, 2, 3, 4, 5], 1, 0.4, false, 0],
    ['grown, mine left: moves to an added one for sure', [1, 2, 3], [2, 3, 4, 5], 1, 0.99, true, 1],
    ['grown from one: moves with 2/3', [1], [1, 2, 3], 1, 0.66, true, 1],
    ['same size, mine stays: stays', [1, 2, 3], [1, 2, 4], 1, 0, false, 0],
    ['shrunk, mine stays: stays', [1, 2, 3], [1, 2], 2, 0, false, 0],
    ['same size, all replaced: moves to an added one', [1, 2, 3], [4, 5, 6], 2, 0, true, 1],
    // kept·(old-new) / (new·(old-kept)) = 2·(4-3) / (3·(4-2)) = 1/3 to a kept one, 2/3 to the added one
    ['shrunk, mine left, one added: kept with 1/3', [1, 2, 3, 4], [2, 3, 5], 1, 0, true, 2 / 3],
    // 1·(3-1) / (1·(3-1)) = 1: the one kept server takes everybody
    ['shrunk to one kept server: moves there', [1, 2, 3], [2], 1, 0, true, 0],
    ['same size, mine left, one added: to the added one', [1, 2, 3], [2, 3, 4], 1, 0, true, 1],
  ];
  it.each(cases)('%s', (_name, before, after, mine, draw, move, pAdded) => {
    const plan = planRebalance(hosts(...before), hosts(...after), at(mine), () => draw);
    expect(plan.move).toBe(move);
    if (move) expect(plan.pAdded).toBeCloseTo(pAdded, 10);
    expect(keys(plan.added)).toEqual(keys(hosts(...after.filter((p) => !before.includes(p)))));
    expect(keys(plan.kept)).toEqual(keys(hosts(...after.filter((p) => before.includes(p)))));
  });

  it('knows our server by its resolved address too', () => {
    const mine: Endpoint = { host: 'zk1.example', port: 1, address: '10.0.0.1' };
    expect(planRebalance(hosts(1, 2, 3), hosts(1, 2), mine, () => 0).move).toBe(false);
  });
});

/** Where 3000 clients end up: each connected to its first host, then given `after`; counts per port. */
function spread(before: number[], after: number[], seed: number): Map<number, number> {
  const prng = new Prng(seed);
  const counts = new Map<number, number>(after.map((p) => [p, 0]));
  for (let i = 0; i < 3000; i++) {
    const provider = new HostProvider(hosts(...before), () => prng.float());
    const mine = provider.next();
    provider.connected();
    const moves = provider.update(hosts(...after), mine);
    const now = moves ? provider.next() : mine;
    counts.set(now.port, (counts.get(now.port) ?? 0) + 1);
  }
  return counts;
}

describe('updateServerList spreads clients evenly over the new list', () => {
  const cases: [string, number[], number[]][] = [
    ['3 → 5 (grown)', [1, 2, 3], [1, 2, 3, 4, 5]],
    ['1 → 3 (a connect string of one member)', [1], [1, 2, 3]],
    ['3 → 3, all replaced', [1, 2, 3], [4, 5, 6]],
    ['4 → 3, one replaced and one removed', [1, 2, 3, 4], [2, 3, 5]],
    ['5 → 3 (shrunk, kept only)', [1, 2, 3, 4, 5], [1, 2, 3]],
  ];
  it.each(cases)('%s', (_name, before, after) => {
    const counts = spread(before, after, 26);
    const even = 3000 / after.length;
    for (const port of after) expect(Math.abs((counts.get(port) ?? 0) - even), `port ${port}: ${JSON.stringify([...counts])}`).toBeLessThan(even * 0.1);
    expect([...counts.keys()].sort()).toEqual([...after].sort());
  });
});

describe('HostProvider', () => {
  it('tries every candidate of a move once, then goes round the whole new list', () => {
    const provider = new HostProvider(hosts(1, 2, 3), () => 0);
    const mine = provider.next();
    provider.connected();
    expect(provider.update(hosts(4, 5, 6), mine)).toBe(true);
    const moving = [provider.next(), provider.next(), provider.next()].map((e) => e.port).sort();
    expect(moving).toEqual([4, 5, 6]);
    const after = Array.from({ length: 6 }, () => provider.next().port);
    expect([...new Set(after)].sort()).toEqual([4, 5, 6]);
  });

  it('ignores a list with the same servers in another order, and keeps its place when it stays', () => {
    const provider = new HostProvider(hosts(1, 2, 3), () => 0.5);
    const first = provider.next();
    provider.connected();
    const order = provider.all().map(endpointKey);
    expect(provider.update(hosts(3, 2, 1), first)).toBe(false);
    expect(provider.all().map(endpointKey)).toEqual(order);
    // Shrunk, ours stays: no move, and the next attempt is another server than ours.
    const others = [1, 2, 3].filter((p) => p !== first.port);
    expect(provider.update(hosts(first.port, others[0] as number), first)).toBe(false);
    expect(provider.next().port).toBe(others[0]);
  });

  it('drops duplicate entries of the new list', () => {
    const provider = new HostProvider(hosts(1), () => 0.99);
    const mine = provider.next();
    provider.update(hosts(1, 2, 2, 1), mine);
    expect(keys(provider.all())).toEqual(keys(hosts(1, 2)));
  });
});
