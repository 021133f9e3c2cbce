/**
 * One server of a given ZooKeeper release per test file, for the 3.4 compatibility and 3.9 feature tests. The
 * release directory comes from the versions harness (zooKeeperHomeFor) once it is on main; until then from
 * ZKWIRE_ZK34_HOME / ZKWIRE_ZK39_HOME.
 */

import { afterAll } from 'vitest';
import { TestingServer } from '../../src/testing/server.js';
import { harnessCleanup } from '../harness/exit-cleanup.js';
import { realClock } from '../harness/real-timers.js';

export type Release = '3.4' | '3.9';

function homeFor(release: Release): string {
  const name = release === '3.4' ? 'ZKWIRE_ZK34_HOME' : 'ZKWIRE_ZK39_HOME';
  const home = process.env[name];
  if (home === undefined || home === '') throw new Error(`${name} is not set: the ZooKeeper ${release} release directory`);
  return home;
}

/** Starts a `release` server on first use and stops it after the file's tests; resolves with its address. */
export function serverOf(release: Release): () => Promise<string> {
  let started: Promise<TestingServer> | undefined;
  afterAll(async () => {
    await (await started?.catch(() => undefined))?.close();
  });
  return async () => {
    started ??= TestingServer.start({ zooKeeperHome: homeFor(release), clock: realClock, cleanup: harnessCleanup() });
    return (await started).connectString;
  };
}
