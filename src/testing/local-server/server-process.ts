import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fourLetterWord, parseServerVersion, probeServerMode, type ServerMode } from './four-letter-client.js';
import { systemClock, type Clock } from '../../session/clock.js';
import { defaultCleanup, type CleanupRegistry } from './cleanup.js';
import type { ZooKeeperInstall } from './install.js';
import type { TlsOptions } from '../../transport/types.js';

/** One local ZooKeeper JVM: the CLI's throwaway server, or a server the tests talk to and break. */
export interface LocalServer {
  readonly host: string;
  readonly port: number;
  /** "127.0.0.1:port" */
  readonly connectString: string;
  /** Graceful shutdown (SIGTERM). A standalone server also removes its data dir; an ensemble member keeps it. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash: clients see their connection drop, the data dir stays for restart(). */
  kill(): Promise<void>;
  /** Start again on the same port with the same data dir (stopping it first if it runs); resolves once serving. */
  restart(): Promise<void>;
  fourLetter(command: string): Promise<string>;
  /** The last lines of the server's log, for assertions' messages and debugging. */
  logTail(lines?: number): string;
  /** The JVM's process id while it runs. */
  readonly pid: number | undefined;
  /** The directory holding zoo.cfg, the data and the log. */
  readonly directory: string;
  /** The release it runs (`3.9.3`), as its `srvr` reported when it last started serving. */
  readonly version: string;
}

export const STANDALONE_MAIN = 'org.apache.zookeeper.server.ZooKeeperServerMain';
export const QUORUM_MAIN = 'org.apache.zookeeper.server.quorum.QuorumPeerMain';

/**
 * Small heap, serial GC, C1 only and class-data sharing: a throwaway server handles little load, and these flags halve
 * the JVM's start time and memory on a 2-core machine. The preallocated transaction log shrinks from 64 MB to 4 MB.
 */
export const FAST_START_JVM_FLAGS: readonly string[] = [
  '-Xmx256m',
  '-Xms16m',
  '-Xss512k',
  '-XX:+UseSerialGC',
  '-XX:TieredStopAtLevel=1',
  '-Xshare:auto',
  '-XX:-UsePerfData',
  '-Djava.awt.headless=true',
  '-Dzookeeper.preAllocSize=4096',
  '-Dorg.slf4j.simpleLogger.showDateTime=true',
];

export interface ServerProcessSpec {
  install: ZooKeeperInstall;
  mainClass: string;
  configFile: string;
  logFile: string;
  host: string;
  port: number;
  /** Which `srvr` modes count as "serving" for this server. */
  servingModes: readonly ServerMode[];
  startTimeoutMs: number;
  /** JVM options before `-cp`; default FAST_START_JVM_FLAGS. */
  jvmFlags?: readonly string[];
  /** Called by stop() after the process is gone (a standalone server removes its directory there). */
  afterStop?: () => void;
  /**
   * Timers for the readiness polling and the SIGKILL escalation; default the runtime's. A test suite that fakes
   * the runtime's timers passes real ones: starting and stopping a server plays the outside world.
   */
  clock?: Clock;
  /** Where the JVM is registered to be killed at exit; default the launcher's own registry. */
  cleanup?: CleanupRegistry;
  /** `port` is a TLS port: the readiness probe and fourLetter() connect with these (a TLS-only server). */
  tls?: TlsOptions;
}

/** Resolves after `ms` on `clock`. */
export function sleepOn(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, ms));
}

export class ServerProcess implements LocalServer {
  readonly host: string;
  readonly port: number;
  readonly connectString: string;
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  /** Set once stop() has removed the server's directory: there is nothing left to restart. */
  private removed = false;
  /** Stopped with SIGSTOP and not continued yet. */
  private stopped = false;
  /** Read from `srvr` each time the server starts serving; the jars may change between restarts in a test's setup. */
  private reportedVersion: string | undefined;

  constructor(private readonly spec: ServerProcessSpec) {
    this.host = spec.host;
    this.port = spec.port;
    this.connectString = `${spec.host}:${spec.port}`;
  }

  private get jvmFlags(): readonly string[] {
    return this.spec.jvmFlags ?? FAST_START_JVM_FLAGS;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get directory(): string {
    return path.dirname(this.spec.configFile);
  }

  get running(): boolean {
    return this.child !== null;
  }

  /** True when `port` is a TLS port (a TLS-only server). */
  get secure(): boolean {
    return this.spec.tls !== undefined;
  }

  get version(): string {
    if (this.reportedVersion === undefined) throw new Error(`server ${this.connectString} has not served yet; its version is not known`);
    return this.reportedVersion;
  }

  /** True while the JVM is stopped with SIGSTOP (see pause()). */
  get paused(): boolean {
    return this.child !== null && this.stopped;
  }

  get clock(): Clock {
    return this.spec.clock ?? systemClock;
  }

  /** Spawns the JVM without waiting; see waitUntilServing. */
  launch(): void {
    if (this.removed) throw new Error(`server ${this.connectString} was stopped and its data removed`);
    if (this.child !== null) throw new Error(`server ${this.connectString} is already running`);
    const { install, mainClass, configFile, logFile } = this.spec;
    fs.appendFileSync(logFile, `--- ${new Date().toISOString()} starting ${mainClass} ${configFile}\n`);
    const logFd = fs.openSync(logFile, 'a');
    let child: ChildProcess;
    try {
      child = spawn(install.java, [...this.jvmFlags, '-cp', install.classpath, mainClass, configFile], {
        stdio: ['ignore', logFd, logFd],
      });
    } finally {
      fs.closeSync(logFd);
    }
    (this.spec.cleanup ?? defaultCleanup).trackChild(child);
    this.stopped = false;
    // A server must never keep this process alive on its own; the cleanup registry kills it when the process ends.
    child.unref();
    this.child = child;
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        if (this.child === child) this.child = null;
        appendLog(logFile, `--- process exited (code ${code}, signal ${signal})\n`);
        resolve();
      });
      child.once('error', (error) => {
        if (this.child === child) this.child = null;
        appendLog(logFile, `--- could not spawn ${install.java}: ${error.message}\n`);
        resolve();
      });
    });
  }

  /** Polls `srvr` until the server reports a serving mode; fails fast with the log tail if the JVM dies. */
  async waitUntilServing(): Promise<ServerMode> {
    const clock = this.clock;
    const deadline = clock.now() + this.spec.startTimeoutMs;
    for (;;) {
      if (this.child === null) throw new Error(this.describeFailure('exited before it started serving'));
      const mode = await probeServerMode(this.host, this.port, 1000, clock, this.spec.tls);
      if (mode !== null && this.spec.servingModes.includes(mode)) {
        this.reportedVersion = parseServerVersion(await this.fourLetter('srvr')) ?? 'unknown';
        return mode;
      }
      if (clock.now() > deadline) {
        throw new Error(this.describeFailure(`did not serve within ${this.spec.startTimeoutMs} ms (mode: ${mode})`));
      }
      await sleepOn(clock, 50);
    }
  }

  /** True when the log shows the JVM could not bind one of its ports (a race with another process; retry). */
  failedToBind(): boolean {
    return /Address already in use|BindException/.test(this.logTail(200));
  }

  async start(): Promise<void> {
    this.launch();
    await this.waitUntilServing();
  }

  async kill(): Promise<void> {
    await this.terminate('SIGKILL');
  }

  /** Graceful shutdown (SIGTERM) that keeps the directory, so restart() finds the same data. */
  async halt(): Promise<void> {
    await this.terminate('SIGTERM');
  }

  /**
   * SIGSTOP: the JVM freezes with its sockets open, as a long GC pause or a stopped VM looks to its peers and
   * clients. Nothing is answered until resume().
   */
  pause(): void {
    if (this.child === null) throw new Error(`server ${this.connectString} is not running`);
    this.child.kill('SIGSTOP');
    this.stopped = true;
  }

  /** SIGCONT after pause(). */
  resume(): void {
    if (this.child === null || !this.stopped) return;
    this.child.kill('SIGCONT');
    this.stopped = false;
  }

  async stop(): Promise<void> {
    await this.terminate('SIGTERM');
    if (this.spec.afterStop !== undefined && !this.removed) {
      this.removed = true;
      this.spec.afterStop();
    }
  }

  async restart(): Promise<void> {
    await this.terminate('SIGTERM');
    await this.start();
  }

  fourLetter(command: string): Promise<string> {
    return fourLetterWord(this.host, this.port, command, undefined, this.clock, this.spec.tls);
  }

  logTail(lines = 40): string {
    try {
      return fs.readFileSync(this.spec.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '(no log)';
    }
  }

  describeFailure(what: string): string {
    return (
      `ZooKeeper ${this.spec.mainClass} on ${this.connectString} ${what}.\n` +
      `command: ${this.spec.install.java} ${this.jvmFlags.join(' ')} -cp ${this.spec.install.classpath} ` +
      `${this.spec.mainClass} ${this.spec.configFile}\n` +
      `--- last lines of ${this.spec.logFile} ---\n${this.logTail()}`
    );
  }

  /** Sends the signal and waits for the exit; a JVM that ignores SIGTERM for 10 s gets SIGKILL. */
  private async terminate(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (child === null) return;
    child.ref(); // keep the event loop alive until the exit is observed
    const clock = this.clock;
    const escalate = signal === 'SIGKILL' ? undefined : clock.setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.kill(signal);
    // A stopped JVM acts on SIGTERM only once it runs again.
    if (this.stopped) child.kill('SIGCONT');
    this.stopped = false;
    await this.exited;
    if (escalate !== undefined) clock.clearTimeout(escalate);
  }
}

/** Never throws: it runs in child-process event handlers, where the directory may already be gone. */
function appendLog(file: string, text: string): void {
  try {
    fs.appendFileSync(file, text);
  } catch {
    // the log went with its directory
  }
}
