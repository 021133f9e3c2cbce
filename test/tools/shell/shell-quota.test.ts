/**
 * Quotas in the shell, in ZooKeeper's own layout: what `setquota` writes is what zkCli.sh writes (byte for byte),
 * zkCli.sh reads it, the server counts the usage into it, and `delquota` leaves /zookeeper/quota as it found it.
 * zkCli.sh is ZooKeeper's own ZooKeeperMain, run from the same install as the test server.
 */

import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatStatsTrack, parseStatsTrack } from '../../../src/cli/shell/commands/quota-layout.js';
import { ZooKeeperClient } from '../../../src/node.js';
import { findZooKeeperInstall } from '../../../src/testing/local-server/install.js';
import { sharedServer } from '../../harness/zookeeper.js';
import { runShellLines } from './run-shell.js';

let server: string;
let zk: ZooKeeperClient;
let base: string;

beforeAll(async () => {
  server = (await sharedServer()).connectString;
  zk = await ZooKeeperClient.connect(server);
  base = `/shell-quota-${randomUUID().slice(0, 8)}`;
  await zk.create(base);
});

afterAll(async () => {
  await zk?.deleteRecursive(`/zookeeper/quota${base}`).catch(() => {});
  await zk?.deleteRecursive(base).catch(() => {});
  await zk?.close();
});

/** zkCli.sh running one command against the test server: its standard output. */
async function zkCli(...args: string[]): Promise<string> {
  const install = findZooKeeperInstall();
  if (install === null) throw new Error('no ZooKeeper install to run zkCli.sh from');
  const { stdout } = await promisify(execFile)(install.java, ['-cp', install.classpath, 'org.apache.zookeeper.ZooKeeperMain', '-server', server, ...args], { timeout: 60_000 });
  return stdout;
}

const text = async (path: string): Promise<string> => new TextDecoder().decode((await zk.getData(path)).data);

describe('StatsTrack text', () => {
  it('round-trips as ZooKeeper writes it: count and bytes first, the rest after one more "=", sorted', () => {
    const written = 'count=5,bytes=-1=;byteHardLimit=-1;countHardLimit=-1';
    expect(formatStatsTrack(parseStatsTrack(written))).toBe(written);
    expect(formatStatsTrack(parseStatsTrack('count=1,bytes=1'))).toBe('count=1,bytes=1');
    expect([...parseStatsTrack('count=3,bytes=')]).toEqual([['count', 3n], ['bytes', -1n]]);
  });
});

describe('setquota, listquota, delquota', () => {
  it('write what zkCli.sh writes, read what it writes, and show the usage the server counts', async () => {
    for (const n of ['ours', 'theirs']) await zk.create(`${base}/${n}`, 'abc');
    await zk.create(`${base}/ours/child`, 'de');
    await zkCli('setquota', '-n', '5', `${base}/theirs`);
    const run = await runShellLines(server, [`setquota -n 5 ${base}/ours`, `listquota ${base}/ours`, `listquota ${base}/theirs`]);
    expect(run.output).toContain(`quota for ${base}/ours: count=5,bytes=-1=;byteHardLimit=-1;countHardLimit=-1\n`);
    // The server counts the subtree: the node and its child, 3 + 2 bytes.
    expect(run.output).toContain(`usage of ${base}/ours: count=2,bytes=5\n`);
    expect(run.output).toContain(`quota for ${base}/theirs: count=5,bytes=-1=;byteHardLimit=-1;countHardLimit=-1\n`);
    expect(await text(`/zookeeper/quota${base}/ours/zookeeper_limits`)).toBe(await text(`/zookeeper/quota${base}/theirs/zookeeper_limits`));
    expect(await zkCli('listquota', `${base}/ours`)).toContain(`Output quota for ${base}/ours count=5,bytes=-1=;byteHardLimit=-1;countHardLimit=-1`);
  }, 60_000);

  it('setquota adds a limit to an existing quota, refuses nested quotas; delquota clears one limit, then all', async () => {
    await zk.create(`${base}/d`);
    await zk.create(`${base}/d/inner`);
    const run = await runShellLines(server, [
      `setquota -b 100 ${base}/d`,
      `setquota -N 7 ${base}/d`,
      `setquota -n 1 ${base}/d/inner`,
      `setquota -n 1 ${base}`,
      `setquota -n 1 ${base}/nosuch`,
      `delquota -b ${base}/d`,
    ]);
    expect(run.output).toContain(`zkwire setquota: BAD_ARGUMENT: setquota ${base}/d/inner: ${base}/d/inner is below ${base}/d, which has a quota`);
    expect(run.output).toContain(`zkwire setquota: BAD_ARGUMENT: setquota ${base}: ${base} has ${base}/d below it, which has a quota`);
    expect(run.output).toContain(`zkwire setquota: NONODE: setquota ${base}/nosuch`);
    expect(await text(`/zookeeper/quota${base}/d/zookeeper_limits`)).toBe('count=-1,bytes=-1=;byteHardLimit=-1;countHardLimit=7');
    await runShellLines(server, [`delquota ${base}/d`]);
    expect(await zk.exists(`/zookeeper/quota${base}/d`)).toBeNull();
    // The directory made for it alone is gone too, the ones other quotas use stay.
    expect(await zk.getChildren(`/zookeeper/quota${base}`)).toEqual(expect.not.arrayContaining(['d']));
  }, 60_000);
});
