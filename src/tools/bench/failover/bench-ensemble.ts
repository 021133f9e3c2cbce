/**
 * The ensemble a failover bench runs on, and the faults it causes there. `start()` launches a throwaway one (the
 * testing kit's TestingCluster, which finds the leader, kills, pauses and restarts members); `around()` borrows one
 * somebody else started (a test's). With `proxied`, every member gets a fault proxy (the kit's startFaultProxy) in
 * front of its client port and the bench connects through those: that is how `partition-leader` holds the links
 * between the bench's sessions and the leader. A proxy on the client port cuts the leader off from its clients
 * only: it goes on leading its followers, so no election happens; the sessions on it time out and move to a
 * follower. (A leader cut off from its peers would need proxies on the quorum ports.)
 */

import { TestingCluster } from '../../../testing/cluster.js';
import { startFaultProxy, type FaultProxy } from '../../../testing/fault-proxy.js';
import type { CleanupRegistry } from '../../../testing/local-server/cleanup.js';
import type { FaultKind } from './fault-spec.js';

export interface BenchEnsembleOptions {
  /** Members (3 or 5 make sense). */
  size: number;
  /** zoo.cfg tickTime, ms (default the kit's, 2000). */
  tickTime?: number | undefined;
  /** Put a fault proxy in front of each member's client port (needed by partition-leader). */
  proxied: boolean;
  /** Where the JVMs are registered for clean-up at exit (the CLI's registry waits for its wind-down). */
  cleanup?: CleanupRegistry | undefined;
}

/** A fault in progress: lift() undoes a pause or a partition (nothing for a kill). */
export interface InjectedFault {
  member: number;
  pid: number | undefined;
  label: string;
  lift(): void;
}

export class BenchEnsemble implements AsyncDisposable {
  readonly #cluster: TestingCluster;
  readonly #owned: boolean;
  readonly #proxies: readonly FaultProxy[];
  readonly #lifts = new Set<() => void>();

  private constructor(cluster: TestingCluster, owned: boolean, proxies: readonly FaultProxy[]) {
    this.#cluster = cluster;
    this.#owned = owned;
    this.#proxies = proxies;
  }

  /** Starts a throwaway ensemble; resolves once one member leads. */
  static async start(options: BenchEnsembleOptions): Promise<BenchEnsemble> {
    const cluster = await TestingCluster.start({
      size: options.size,
      ...(options.tickTime === undefined ? {} : { tickTime: options.tickTime }),
      ...(options.cleanup === undefined ? {} : { cleanup: options.cleanup }),
    });
    try {
      return await BenchEnsemble.#wrap(cluster, true, options.proxied);
    } catch (e) {
      await cluster.close();
      throw e;
    }
  }

  /** Runs faults on `cluster`, which stays its owner's: close() closes only the proxies. */
  static around(cluster: TestingCluster, proxied: boolean): Promise<BenchEnsemble> {
    return BenchEnsemble.#wrap(cluster, false, proxied);
  }

  static async #wrap(cluster: TestingCluster, owned: boolean, proxied: boolean): Promise<BenchEnsemble> {
    const proxies: FaultProxy[] = [];
    try {
      if (proxied) for (const m of cluster.servers) proxies.push(await startFaultProxy({ host: m.host, port: m.port }));
    } catch (e) {
      await Promise.allSettled(proxies.map((p) => p.close()));
      throw e;
    }
    return new BenchEnsemble(cluster, owned, proxies);
  }

  /** What the bench connects to: every member, through its proxy when proxied. */
  get connectString(): string {
    return this.#proxies.length > 0 ? this.#proxies.map((p) => p.connectString).join(',') : this.#cluster.connectString;
  }

  get size(): number {
    return this.#cluster.servers.length;
  }

  get proxied(): boolean {
    return this.#proxies.length > 0;
  }

  /** The members' own addresses, their proxies' (when proxied) and their JVM pids. */
  members(): { connectString: string; proxy: string | null; pid: number | null }[] {
    return this.#cluster.servers.map((m, i) => ({ connectString: m.connectString, proxy: this.#proxies[i]?.connectString ?? null, pid: m.pid ?? null }));
  }

  /** The ensemble's directory (all members' data and logs). */
  get directory(): string {
    return this.#cluster.directory;
  }

  /** Waits for a settled election and returns the leader's index. */
  leader(): Promise<number> {
    return this.#cluster.leaderIndex();
  }

  /**
   * Does `kind` to member `member` (the leader, found by the caller just before). `onCaused` hears the moment it is
   * caused (a performance.now() reading taken just before the signal is sent or the links are held).
   */
  async inject(kind: FaultKind, member: number, onCaused: (fault: InjectedFault, atMs: number) => void): Promise<InjectedFault> {
    const m = this.#cluster.servers[member];
    if (m === undefined) throw new RangeError(`no member #${member}`);
    const pid = m.pid;
    const at = performance.now();
    let fault: InjectedFault;
    if (kind === 'kill-leader') {
      fault = { member, pid, label: `SIGKILL to leader #${member} ${m.connectString} (pid ${pid ?? '?'})`, lift: () => {} };
      onCaused(fault, at);
      await this.#cluster.kill(member);
      return fault;
    }
    if (kind === 'pause-leader') {
      this.#cluster.pause(member);
      fault = this.#liftable(member, pid, `SIGSTOP to leader #${member} ${m.connectString} (pid ${pid ?? '?'})`, () => this.#cluster.resume(member));
    } else {
      const proxy = this.#proxies[member];
      if (proxy === undefined) throw new Error('partition-leader needs the ensemble started with proxies');
      proxy.pause();
      fault = this.#liftable(member, pid, `links from the bench's sessions to leader #${member} ${m.connectString} held at its proxy`, () => proxy.resume());
    }
    onCaused(fault, at);
    return fault;
  }

  /** Lifts every pause and partition still in force. */
  liftAll(): void {
    for (const lift of [...this.#lifts]) lift();
  }

  /** Closes the proxies, and the cluster when it was started here (its JVMs killed, its directory removed). */
  async close(): Promise<void> {
    this.liftAll();
    await Promise.allSettled(this.#proxies.map((p) => p.close()));
    if (this.#owned) await this.#cluster.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #liftable(member: number, pid: number | undefined, label: string, undo: () => void): InjectedFault {
    let lifted = false;
    const lift = (): void => {
      if (lifted) return;
      lifted = true;
      this.#lifts.delete(lift);
      undo();
    };
    this.#lifts.add(lift);
    return { member, pid, label, lift };
  }
}
