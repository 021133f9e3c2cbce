/**
 * The conformance suite: client-visible ZooKeeper behaviour, stated once and run against every server zkwire
 * ships or tests with (issue #20). A test file per server calls `defineConformance` with a factory for its target.
 */

import { afterAll, beforeAll, describe } from 'vitest';
import { ConformanceRun, type DefineCase } from './run.js';
import type { ConformanceTarget } from './target.js';
import { nodeCases } from './cases/nodes.js';
import { createModeCases } from './cases/create-modes.js';
import { errorCases } from './cases/errors.js';
import { readCases } from './cases/reads.js';
import { multiCases } from './cases/multi.js';
import { watchCases } from './cases/watches.js';
import { persistentWatchCases } from './cases/persistent-watches.js';
import { sessionCases } from './cases/sessions.js';
import { aclCases } from './cases/acl.js';
import { limitCases } from './cases/limits.js';
import { recipeCases } from './cases/recipes.js';

/** A topic of the suite: its title and the function that defines its cases. */
export interface Topic {
  readonly title: string;
  readonly define: (c: DefineCase) => void;
}

const TOPICS: readonly Topic[] = [
  nodeCases,
  createModeCases,
  errorCases,
  readCases,
  multiCases,
  watchCases,
  persistentWatchCases,
  sessionCases,
  aclCases,
  limitCases,
  recipeCases,
];

export function defineConformance(title: string, start: () => Promise<ConformanceTarget>): void {
  describe(`conformance: ${title}`, () => {
    const run = new ConformanceRun();
    beforeAll(async () => {
      run.target = await start();
    });
    afterAll(() => run.close());
    run.reportAfterAll();
    for (const topic of TOPICS) describe(topic.title, () => topic.define(run.define));
  });
}
