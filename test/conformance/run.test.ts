/**
 * The conformance run's own bookkeeping, with no server: a known difference flips only on the server it names and is
 * listed; the count is of cases that passed out of cases that ran. (The run never connects here.)
 */

import { afterAll, beforeAll, describe, expect } from 'vitest';
import { ConformanceRun } from './run.js';
import type { ConformanceTarget } from './target.js';

const unusable = (): never => {
  throw new Error('not used by these cases');
};

describe('ConformanceRun', () => {
  const run = new ConformanceRun();
  const name = 'in-memory 3.9';
  beforeAll(() => {
    run.target = { name, version: '3.9', connect: unusable, expire: unusable, disconnect: unusable, until: unusable, close: async () => {} } satisfies ConformanceTarget;
  });

  run.define('a difference named for this server flips', async (t) => {
    expect(t.knownDifference(name, 'answers X')).toBe(true);
  });

  run.define("a difference named for the server's kind flips on each of its versions", async (t) => {
    expect(t.knownDifference('in-memory', 'answers Z')).toBe(true);
    expect(t.knownDifference('in-mem', 'a prefix of the kind is not the kind')).toBe(false);
  });

  run.define("byVersion picks the run's version", async (t) => {
    expect(t.byVersion({ '3.8': 'old', '3.9': 'new' })).toBe('new');
  });

  run.define('a difference named for another server does not', async (t) => {
    expect(t.knownDifference('zookeeper 3.8', 'answers Y')).toBe(false);
    expect(t.knownDifference('in-memory 3.8', 'answers Y')).toBe(false);
    expect(t.path()).not.toBe(t.path());
  });

  afterAll(() => {
    expect(run.summary()).toEqual([
      'conformance: in-memory 3.9 — 4 of 4 passed',
      '  2 known difference(s), asserted as documented:',
      '  - a difference named for this server flips: answers X',
      "  - a difference named for the server's kind flips on each of its versions: answers Z",
    ]);
  });
});
