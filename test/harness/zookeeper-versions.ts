import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fourLetterWord, parseServerVersion } from '../../src/testing/local-server/four-letter-client.js';
import type { ServerProcess } from '../../src/testing/local-server/server-process.js';
import { DEBIAN_ZOOKEEPER_JAR } from '../../src/testing/local-server/install.js';
import { startZooKeeper, type ZkServerOptions } from './zookeeper.js';

/**
 * The ZooKeeper releases the suite knows, by minor version: 3.8 is the system's (Debian 12's packages, installed by
 * scripts/setup.sh), 3.9 and 3.4 are Debian 13's 3.9.3 and Debian 11's 3.4.13, which scripts/zookeeper-versions.sh
 * (run by setup.sh) unpacks into .zookeeper/<release>/ in the repository, or under ZKWIRE_ZOOKEEPER_DIR when set.
 */
export type ZooKeeperVersion = '3.4' | '3.8' | '3.9';

/** The exact release behind each version, as its server reports it in `srvr`. */
export const ZOOKEEPER_RELEASES: Readonly<Record<ZooKeeperVersion, string>> = { '3.4': '3.4.13', '3.8': '3.8.0', '3.9': '3.9.3' };

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The `zooKeeperHome` (a directory of Debian's jars) holding `version`. Throws, saying how to fetch it, when it is not
 * there: a test meant for a version must not silently run on another.
 */
export function zooKeeperHomeFor(version: ZooKeeperVersion): string {
  if (version === '3.8') return path.dirname(DEBIAN_ZOOKEEPER_JAR);
  const release = ZOOKEEPER_RELEASES[version];
  const root = process.env['ZKWIRE_ZOOKEEPER_DIR'] || path.join(REPO_ROOT, '.zookeeper');
  const home = path.join(root, release, 'usr', 'share', 'java');
  if (!fs.existsSync(path.join(home, 'zookeeper.jar'))) {
    throw new Error(
      `ZooKeeper ${release} is not unpacked in ${home}. Fetch it with:  bash scripts/zookeeper-versions.sh ${release}` +
        `  (npm test runs scripts/setup.sh, which does it)`,
    );
  }
  return home;
}

/** A throwaway standalone server (as startZooKeeper) running the given version. */
export function startZooKeeperVersion(version: ZooKeeperVersion, opts: ZkServerOptions = {}): Promise<ServerProcess> {
  return startZooKeeper({ ...opts, zooKeeperHome: zooKeeperHomeFor(version) });
}

/**
 * The version of the server at `connectString` (its first member), from its `srvr`: for tests on the shared server,
 * which runs whichever release the run chose (ZOOKEEPER_HOME), to assert a behaviour that differs between versions.
 */
export async function zooKeeperVersionOf(connectString: string): Promise<ZooKeeperVersion> {
  const first = connectString.split(',')[0]!.split('/')[0]!;
  const colon = first.lastIndexOf(':');
  const release = parseServerVersion(await fourLetterWord(first.slice(0, colon), Number(first.slice(colon + 1)), 'srvr'));
  const version = (Object.keys(ZOOKEEPER_RELEASES) as ZooKeeperVersion[]).find((v) => release?.startsWith(`${v}.`));
  if (version === undefined) throw new Error(`the server at ${first} runs ZooKeeper ${release ?? '(no version in srvr)'}, which the suite does not know`);
  return version;
}
