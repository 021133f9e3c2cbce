import fs from 'node:fs';
import path from 'node:path';
import { systemClock } from '../session/clock.js';
import { probeServerMode } from './local-server/four-letter-client.js';
import { quorumConfig, type QuorumMember } from './local-server/config.js';
import { freePorts } from './local-server/free-port.js';
import { installEnv, requireZooKeeperInstall } from './local-server/install.js';
import { makeServerDir, removeServerDir } from './local-server/server-dir.js';
import { QUORUM_MAIN, ServerProcess, sleepOn } from './local-server/server-process.js';
import type { TestingServerOptions } from './options.js';

/** One member of a {@link TestingCluster}, as tests see it. */
export interface ClusterMember {
  /** Always `127.0.0.1`. */
  readonly host: string;
  /** Its client port; the same across restarts. */
  readonly port: number;
  /** `127.0.0.1:port`: this member alone. */
  readonly connectString: string;
  /** The JVM's process id while it runs. */
  readonly pid: number | undefined;
  /** True while its JVM runs (paused included). */
  readonly running: boolean;
  /** True while it is stopped with SIGSTOP. */
  readonly paused: boolean;
  /** The ZooKeeper release it runs (`'3.9.3'`), as its `srvr` reported when it last started serving. */
  readonly version: string;
  /** Sends a four-letter word to this member and resolves with the answer. */
  fourLetter(command: string): Promise<string>;
  /** The last lines of its log. */
  logTail(lines?: number): string;
}

/** Options of {@link TestingCluster.start}: those of every server, and the size. */
export interface TestingClusterOptions extends TestingServerOptions {
  /** Number of members (default 3). */
  size?: number | undefined;
}

const PORT_ATTEMPTS = 3;

/**
 * A ZooKeeper ensemble on 127.0.0.1 for tests, as Curator's `TestingCluster`: one JVM per member (client, quorum and
 * election ports of its own, a directory each under one temp directory). Members are addressed by index (0-based,
 * the order of `servers` and of `connectString`): kill one (SIGKILL, a crash), pause one (SIGSTOP, a frozen
 * process with its sockets open), and restart it on the same ports with its data. `leaderIndex()` waits for an
 * election to settle and says who leads.
 *
 * `close()` (or `await using`) kills every member and removes the directories; a cluster nobody closes goes when
 * the process exits or is interrupted. Node only.
 */
export class TestingCluster implements AsyncDisposable {
  /** Every member, comma-separated: `127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3`. */
  readonly connectString: string;
  readonly #members: readonly ServerProcess[];
  readonly #root: string;
  readonly #options: TestingClusterOptions;
  #closed = false;

  private constructor(members: readonly ServerProcess[], root: string, options: TestingClusterOptions) {
    this.#members = members;
    this.#root = root;
    this.#options = options;
    this.connectString = members.map((m) => m.connectString).join(',');
  }

  /** Starts every member and resolves once all serve and one of them leads. */
  static async start(options: TestingClusterOptions = {}): Promise<TestingCluster> {
    const size = options.size ?? 3;
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`cluster size must be a positive integer, got ${size}`);
    for (let attempt = 1; ; attempt++) {
      const cluster = await TestingCluster.#launch(size, options);
      try {
        await Promise.all(cluster.#members.map((m) => m.waitUntilServing()));
        await cluster.leaderIndex();
        return cluster;
      } catch (error) {
        // Another process can take a probed free port before the JVM binds it: fresh ports fix that.
        const retry = attempt < PORT_ATTEMPTS && cluster.#members.some((m) => m.failedToBind());
        await cluster.close();
        if (!retry) throw error;
      }
    }
  }

  /** The directory holding every member's zoo.cfg, data and log; removed by close(). */
  get directory(): string {
    return this.#root;
  }

  /** The members, in index order. */
  get servers(): readonly ClusterMember[] {
    return this.#members;
  }

  /** SIGKILL member `i` (a crash); its data stays for restart(). */
  async kill(i: number): Promise<void> {
    await this.#member(i).kill();
  }

  /** Graceful shutdown (SIGTERM) of member `i`; its data stays for restart(). */
  async stop(i: number): Promise<void> {
    await this.#member(i).halt();
  }

  /** SIGSTOP member `i`: it freezes with its sockets open; its peers and clients time out on it. */
  pause(i: number): void {
    this.#member(i).pause();
  }

  /** SIGCONT member `i` after pause(). */
  resume(i: number): void {
    this.#member(i).resume();
  }

  /** Starts member `i` again (same ports, same data); resolves once it serves as leader or follower. */
  async restart(i: number): Promise<void> {
    await this.#member(i).restart();
  }

  /**
   * Waits until every running, unpaused member serves and exactly one of them leads, then returns the leader's
   * index. After a kill this is the way to wait for the election to finish. Rejects after `startTimeoutMs` (30 s by
   * default), e.g. when no quorum is left, with every member's mode and log tail.
   */
  async leaderIndex(): Promise<number> {
    const clock = this.#options.clock ?? systemClock;
    const timeoutMs = this.#options.startTimeoutMs ?? 30_000;
    const deadline = clock.now() + timeoutMs;
    let modes: (string | null)[] = [];
    for (;;) {
      const live = (m: ServerProcess): boolean => m.running && !m.paused;
      modes = await Promise.all(this.#members.map((m) => (live(m) ? probeServerMode(m.host, m.port, 1000, clock) : null)));
      const leaders = modes.flatMap((mode, i) => (mode === 'leader' ? [i] : []));
      const serving = modes.filter((mode) => mode === 'leader' || mode === 'follower').length;
      const [leader] = leaders;
      if (leader !== undefined && leaders.length === 1 && serving === this.#members.filter(live).length) return leader;
      if (clock.now() > deadline) break;
      await sleepOn(clock, 100);
    }
    const state = this.#members.map(
      (m, i) => `#${i} ${m.connectString}: ${!m.running ? 'down' : m.paused ? 'paused' : (modes[i] ?? 'not serving')}`,
    );
    const logs = this.#members.map((m, i) => `--- member #${i} log ---\n${m.logTail(15)}`);
    throw new Error(`cluster has no single leader after ${timeoutMs} ms\n${state.join('\n')}\n${logs.join('\n')}`);
  }

  /** Kills every member and removes their directories. Safe to call twice. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // SIGKILL, not SIGTERM: the data is thrown away anyway, and a leader shutting down gracefully would only make the
    // others start an election while they are being stopped.
    await Promise.all(this.#members.map((m) => m.kill()));
    removeServerDir(this.#root, this.#options.cleanup);
  }

  /** close(), for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #member(i: number): ServerProcess {
    const member = this.#members[i];
    if (member === undefined) throw new RangeError(`no cluster member #${i} (size ${this.#members.length})`);
    return member;
  }

  static async #launch(size: number, opts: TestingClusterOptions): Promise<TestingCluster> {
  const install = requireZooKeeperInstall(installEnv(opts), 'kit');
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
  const root = makeServerDir(`ensemble${size}`, opts.cleanup);
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
      startTimeoutMs: opts.startTimeoutMs ?? 30_000,
      ...(opts.jvmFlags === undefined ? {} : { jvmFlags: opts.jvmFlags }),
      ...(opts.clock === undefined ? {} : { clock: opts.clock }),
      ...(opts.cleanup === undefined ? {} : { cleanup: opts.cleanup }),
    });
  });
  for (const member of members) member.launch();
  return new TestingCluster(members, root, opts);
  }
}
