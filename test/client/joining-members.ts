/**
 * Members started to join a running ensemble, as ZooKeeper's reconfig guide does it: each joiner's configuration is
 * the ensemble's current one plus itself as a participant, so it finds the leader and syncs as a non-voting
 * follower; a `reconfig` then makes it a member. TestingCluster has fixed members, so this helper launches the
 * joiners' JVMs itself, with the kit's launcher.
 */

import fs from 'node:fs';
import path from 'node:path';
import { quorumConfig, type QuorumMember } from '../../src/testing/local-server/config.js';
import { freePorts } from '../../src/testing/local-server/free-port.js';
import { installEnv, requireZooKeeperInstall } from '../../src/testing/local-server/install.js';
import { makeServerDir, removeServerDir } from '../../src/testing/local-server/server-dir.js';
import { QUORUM_MAIN, ServerProcess } from '../../src/testing/local-server/server-process.js';
import { harnessCleanup } from '../harness/exit-cleanup.js';
import { realClock } from '../harness/real-timers.js';

export interface Joiners {
  readonly members: readonly ServerProcess[];
  /** Their server specs, for `reconfig` (`server.N=127.0.0.1:q:e:participant;127.0.0.1:port`). */
  readonly specs: readonly string[];
  /** Kills them and removes their directory. */
  close(): Promise<void>;
}

/** The members of a configuration text (getConfig's), as the launcher's config writer takes them. */
export function quorumMembers(config: string): QuorumMember[] {
  const members: QuorumMember[] = [];
  for (const line of config.split('\n')) {
    const m = /^server\.(\d+)=[^:]+:(\d+):(\d+)(?::\w+)?;(?:[^;]*:)?(\d+)$/.exec(line.trim());
    if (m !== null) members.push({ id: Number(m[1]), quorumPort: Number(m[2]), electionPort: Number(m[3]), clientPort: Number(m[4]) });
  }
  return members;
}

/** Starts `ids.length` joiners for the ensemble whose configuration is `config`; resolves once each serves. */
export async function startJoiners(config: string, ids: readonly number[], extraConfig: Record<string, string>): Promise<Joiners> {
  const install = requireZooKeeperInstall(installEnv({}), 'tests');
  const cleanup = harnessCleanup();
  const current = quorumMembers(config);
  const ports = await freePorts(ids.length * 3);
  const root = makeServerDir('joiners', cleanup);
  const joiners: QuorumMember[] = ids.map((id, i) => ({
    id,
    clientPort: ports[3 * i] as number,
    quorumPort: ports[3 * i + 1] as number,
    electionPort: ports[3 * i + 2] as number,
  }));
  const members = joiners.map((me) => {
    const dir = path.join(root, `server${me.id}`);
    const dataDir = path.join(dir, 'data');
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'myid'), `${me.id}\n`);
    const configFile = path.join(dir, 'zoo.cfg');
    fs.writeFileSync(configFile, quorumConfig({ extraConfig }, dataDir, me.clientPort as number, [...current, me]));
    return new ServerProcess({
      install,
      mainClass: QUORUM_MAIN,
      configFile,
      logFile: path.join(dir, 'server.log'),
      host: '127.0.0.1',
      port: me.clientPort as number,
      // Before the reconfig a joiner serves as a (non-voting) follower; after it, as anything.
      servingModes: ['leader', 'follower', 'observer'],
      startTimeoutMs: 90_000,
      clock: realClock,
      cleanup,
    });
  });
  const close = async (): Promise<void> => {
    await Promise.all(members.map((m) => m.kill()));
    removeServerDir(root, cleanup);
  };
  try {
    for (const member of members) member.launch();
    await Promise.all(members.map((m) => m.waitUntilServing()));
  } catch (e) {
    await close();
    throw e;
  }
  const specs = joiners.map((j) => `server.${j.id}=127.0.0.1:${j.quorumPort}:${j.electionPort}:participant;127.0.0.1:${j.clientPort}`);
  return { members, specs, close };
}
