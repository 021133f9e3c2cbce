import fs from 'node:fs';
import path from 'node:path';
import { probeServerMode } from './four-letter-client.js';
import { freePorts } from './free-port.js';
import { makeServerDir, removeServerDir } from './server-dir.js';
import { quorumConfig, type QuorumMember } from './zk-config.js';
import { requireZooKeeperInstall } from './zk-install.js';
import { now, sleep } from './real-timers.js';
import { QUORUM_MAIN, ServerProcess, type ZkServer } from './zk-process.js';
import type { ZkServerOptions } from './zookeeper.js';

/** A ZooKeeper ensemble on loopback: one QuorumPeerMain JVM per member, each with client/quorum/election ports. */
export interface ZkEnsemble {
  readonly servers: readonly ZkServer[];
  /** Every member, comma-separated: "127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3". */
  readonly connectString: string;
  /** SIGKILL member i (a crash); its data dir stays. */
  kill(i: number): Promise<void>;
  /** Start member i again (same ports, same data); resolves once it serves as leader or follower. */
  restart(i: number): Promise<void>;
  /** Stop every member and remove all their directories. */
  stop(): Promise<void>;
  /**
   * Waits until every running member serves and exactly one of them leads, then returns the leader's index. After a
   * kill this is the way to wait for the election to finish. Fails after the start timeout (e.g. without a quorum).
   */
  leaderIndex(): Promise<number>;
}

const PORT_ATTEMPTS = 3;

export async function startEnsemble(size = 3, opts: ZkServerOptions = {}): Promise<ZkEnsemble> {
  if (!Number.isInteger(size) || size < 1) throw new Error(`ensemble size must be a positive integer, got ${size}`);
  for (let attempt = 1; ; attempt++) {
    const ensemble = await launchEnsemble(size, opts);
    try {
      await Promise.all(ensemble.members.map((m) => m.waitUntilServing()));
      await ensemble.leaderIndex();
      return ensemble;
    } catch (error) {
      const retry = attempt < PORT_ATTEMPTS && ensemble.members.some((m) => m.failedToBind());
      await ensemble.stop();
      if (!retry) throw error;
    }
  }
}

async function launchEnsemble(size: number, opts: ZkServerOptions): Promise<Ensemble> {
  const install = requireZooKeeperInstall();
  const startTimeoutMs = opts.startTimeoutMs ?? 30_000;
  const ports = await freePorts(size * 3);
  const port = (i: number): number => {
    const p = ports[i];
    if (p === undefined) throw new Error(`port ${i} missing`);
    return p;
  };
  const quorum: QuorumMember[] = Array.from({ length: size }, (_, i) => ({
    id: i + 1,
    quorumPort: port(size + 2 * i),
    electionPort: port(size + 2 * i + 1),
    clientPort: port(i),
  }));
  const root = makeServerDir(`ensemble${size}`);
  const members = quorum.map((member, i) => {
    const dir = path.join(root, `server${member.id}`);
    const dataDir = path.join(dir, 'data');
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'myid'), `${member.id}\n`);
    const configFile = path.join(dir, 'zoo.cfg');
    fs.writeFileSync(configFile, quorumConfig(opts, dataDir, port(i), quorum));
    return new ServerProcess({
      install,
      mainClass: QUORUM_MAIN,
      configFile,
      logFile: path.join(dir, 'server.log'),
      host: '127.0.0.1',
      port: port(i),
      servingModes: ['leader', 'follower'],
      startTimeoutMs,
      ...(opts.jvmFlags === undefined ? {} : { jvmFlags: opts.jvmFlags }),
    });
  });
  for (const member of members) member.launch();
  return new Ensemble(members, root, startTimeoutMs);
}

class Ensemble implements ZkEnsemble {
  readonly connectString: string;

  constructor(
    readonly members: readonly ServerProcess[],
    private readonly root: string,
    private readonly timeoutMs: number,
  ) {
    this.connectString = members.map((m) => m.connectString).join(',');
  }

  get servers(): readonly ZkServer[] {
    return this.members;
  }

  async kill(i: number): Promise<void> {
    await this.member(i).kill();
  }

  async restart(i: number): Promise<void> {
    await this.member(i).restart();
  }

  async stop(): Promise<void> {
    // SIGKILL, not SIGTERM: the data is thrown away anyway, and a leader shutting down gracefully would only make the
    // others start an election while they are being stopped.
    await Promise.all(this.members.map((m) => m.kill()));
    removeServerDir(this.root);
  }

  async leaderIndex(): Promise<number> {
    const deadline = now() + this.timeoutMs;
    let modes: (string | null)[] = [];
    for (;;) {
      const running = this.members.filter((m) => m.running);
      modes = await Promise.all(this.members.map((m) => (m.running ? probeServerMode(m.host, m.port, 1000) : null)));
      const leaders = modes.flatMap((mode, i) => (mode === 'leader' ? [i] : []));
      const serving = modes.filter((mode) => mode === 'leader' || mode === 'follower').length;
      const [leader] = leaders;
      if (leader !== undefined && leaders.length === 1 && serving === running.length) return leader;
      if (now() > deadline) break;
      await sleep(100);
    }
    const state = this.members.map((m, i) => `#${i} ${m.connectString}: ${m.running ? (modes[i] ?? 'not serving') : 'down'}`);
    const logs = this.members.map((m, i) => `--- member #${i} log ---\n${m.logTail(15)}`);
    throw new Error(
      `ensemble has no single leader after ${this.timeoutMs} ms\n${state.join('\n')}\n${logs.join('\n')}`,
    );
  }

  private member(i: number): ServerProcess {
    const member = this.members[i];
    if (member === undefined) throw new Error(`no ensemble member #${i} (size ${this.members.length})`);
    return member;
  }
}
