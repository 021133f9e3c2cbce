/**
 * One server of a given ZooKeeper release per test file, started on first use and stopped after the file's tests:
 * for the 3.4 compatibility and 3.9 feature tests (the releases come from test/harness/zookeeper-versions.ts).
 */

import { afterAll } from 'vitest';
import type { ServerProcess } from '../../src/testing/local-server/server-process.js';
import { startZooKeeperVersion, type ZooKeeperVersion } from '../harness/zookeeper-versions.js';

/** A lazily started `version` server for this test file; the returned function resolves with its address. */
export function serverOf(version: ZooKeeperVersion): () => Promise<string> {
  let started: Promise<ServerProcess> | undefined;
  afterAll(async () => {
    await (await started?.catch(() => undefined))?.stop();
  });
  return async () => {
    started ??= startZooKeeperVersion(version);
    return (await started).connectString;
  };
}
