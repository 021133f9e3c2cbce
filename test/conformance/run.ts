/**
 * One conformance run against one target: registers the cases as vitest tests, gives each a context (its clients,
 * closed after it; unique paths; the known-difference switch), counts what passed and prints the summary line,
 * `conformance: <target> — N of M passed`, with the known differences listed under it.
 */

import { randomUUID } from 'node:crypto';
import { afterAll, it } from 'vitest';
import type { ZooKeeperClient } from '../../src/node.js';
import type { ConformanceTarget, ConformanceVersion, TargetConnectOptions } from './target.js';

export interface CaseContext {
  readonly target: ConformanceTarget;
  /** A connected client, closed when the case ends. */
  client(options?: TargetConnectOptions): Promise<ZooKeeperClient>;
  /** A fresh absolute path no other case uses (not created). */
  path(): string;
  /**
   * True when the run's target is `targetName`: the case then asserts that server's documented behaviour instead of
   * ZooKeeper's, and the difference is counted and listed in the summary. A case is never skipped for a difference.
   */
  knownDifference(targetName: string, reason: string): boolean;
  /**
   * What the case expects on the run's ZooKeeper version, for behaviour that changed between versions: every
   * version is named, so a case states what holds on each and runs everywhere (nothing is skipped).
   */
  byVersion<T>(expected: Readonly<Record<ConformanceVersion, T>>): T;
}

export type CaseBody = (t: CaseContext) => Promise<void>;

/** Registers one case; the topic files receive it. */
export type DefineCase = (name: string, body: CaseBody) => void;

export class ConformanceRun {
  #target: ConformanceTarget | undefined;
  #ran = 0;
  #passed = 0;
  readonly #differences: string[] = [];

  set target(target: ConformanceTarget) {
    this.#target = target;
  }

  get target(): ConformanceTarget {
    if (this.#target === undefined) throw new Error('the conformance target did not start');
    return this.#target;
  }

  /** The `DefineCase` of this run, to be called inside a describe block. */
  readonly define: DefineCase = (name, body) => {
    it(name, async () => {
      this.#ran++;
      const clients: ZooKeeperClient[] = [];
      const target = this.target;
      const context: CaseContext = {
        target,
        client: async (options) => {
          const client = await target.connect(options);
          clients.push(client);
          return client;
        },
        path: () => `/c-${randomUUID()}`,
        knownDifference: (targetName, reason) => {
          if (target.name !== targetName && !target.name.startsWith(`${targetName} `)) return false;
          this.#differences.push(`${name}: ${reason}`);
          return true;
        },
        byVersion: (expected) => expected[target.version],
      };
      try {
        await body(context);
      } finally {
        await Promise.all(clients.map((c) => c.close()));
      }
      this.#passed++;
    });
  };

  /** Stops the target, if it started. */
  async close(): Promise<void> {
    await this.#target?.close();
  }

  /** The summary: `conformance: <target> — N of M passed`, then the known differences met, one a line. */
  summary(): string[] {
    const name = this.#target?.name ?? 'target that did not start';
    const lines = [`conformance: ${name} — ${this.#passed} of ${this.#ran} passed`];
    if (this.#differences.length > 0) {
      lines.push(`  ${this.#differences.length} known difference(s), asserted as documented:`);
      for (const d of this.#differences) lines.push(`  - ${d}`);
    }
    return lines;
  }

  /** Prints the summary once every case of the run has finished (call inside the run's outermost describe). */
  reportAfterAll(): void {
    afterAll(() => {
      console.log(this.summary().join('\n'));
    });
  }
}
