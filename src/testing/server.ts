import { startLocalServer } from './local-server/standalone.js';
import type { ServerProcess } from './local-server/server-process.js';
import type { TestingServerOptions } from './options.js';
import type { TestingServerTls } from './local-server/tls.js';

/**
 * A throwaway standalone ZooKeeper for tests, as Curator's `TestingServer`: it runs the ZooKeeper this machine has
 * (Debian's `zookeeper` package jars, `ZOOKEEPER_HOME`, or `options.zooKeeperHome`) on a free 127.0.0.1 port, with
 * its configuration, data and log in a fresh directory under the system's temp directory.
 *
 * `stop()` and `restart()` keep the port and the data, so a test can take the server away and bring it back;
 * `close()` (or `await using`) stops it and removes the directory. A server nobody closes is killed, and its
 * directory removed, when the process exits or is interrupted (SIGINT, SIGTERM, SIGHUP). Node only (it spawns a JVM);
 * Deno and Bun run it through their Node compatibility.
 *
 * Without Java or ZooKeeper, `start()` rejects with {@link ZooKeeperNotInstalledError}, whose message says what to
 * install.
 */
export class TestingServer implements AsyncDisposable {
  readonly #process: ServerProcess;

  private constructor(process: ServerProcess) {
    this.#process = process;
  }

  /**
   * Starts a server and resolves once it serves (its `srvr` reports `Mode: standalone`). With `tls`, it listens on a
   * TLS secureClientPort only (no plaintext port at all): `port` is that port, `secure` is true, and readiness and
   * fourLetter() go over TLS with `tls.probe`.
   */
  static async start(options: TestingServerOptions & { tls?: TestingServerTls | undefined } = {}): Promise<TestingServer> {
    return new TestingServer(await startLocalServer({ ...options, purpose: 'kit' }));
  }

  /** Always `127.0.0.1`. */
  get host(): string {
    return this.#process.host;
  }

  /** True when it serves TLS only (started with `tls`): `port` is its secureClientPort, clients need `tls`. */
  get secure(): boolean {
    return this.#process.secure;
  }

  /** The client port (the secureClientPort of a TLS-only server); the same across restarts. */
  get port(): number {
    return this.#process.port;
  }

  /** `127.0.0.1:port`, for `connect()`. */
  get connectString(): string {
    return this.#process.connectString;
  }

  /**
   * The ZooKeeper release it runs, as its `srvr` reports it (`'3.9.3'`, `'3.8.0'`): which install was picked
   * (`zooKeeperHome`, `ZOOKEEPER_HOME`, Debian's packages) is then visible to the test, e.g. to assert a behaviour
   * that differs between versions.
   */
  get version(): string {
    return this.#process.version;
  }

  /** The JVM's process id while it runs. */
  get pid(): number | undefined {
    return this.#process.pid;
  }

  /** True while the JVM runs (paused included). */
  get running(): boolean {
    return this.#process.running;
  }

  /**
   * The server's data directory (zoo.cfg's `dataDir`, `<directory>/data`): the one `zkwire txnlog`, `zkwire snapshot`
   * and `zkwire analyze --data-dir` take. Removed by close().
   */
  get dataDirectory(): string {
    return `${this.#process.directory}/data`;
  }

  /**
   * The server's own directory, holding zoo.cfg, `data/` ({@link dataDirectory}) and `server.log`; removed by
   * close().
   */
  get directory(): string {
    return this.#process.directory;
  }

  /** Graceful shutdown (SIGTERM): clients lose their connection; the port and the data stay for restart(). */
  stop(): Promise<void> {
    return this.#process.halt();
  }

  /** SIGKILL, as a crash; the port and the data stay for restart(). */
  kill(): Promise<void> {
    return this.#process.kill();
  }

  /**
   * SIGSTOP: the server freezes with its connections open (as a long GC pause looks), so clients time out rather
   * than see a close. resume() lets it go on; sessions it would have expired meanwhile expire then.
   */
  pause(): void {
    this.#process.pause();
  }

  /** SIGCONT after pause(). */
  resume(): void {
    this.#process.resume();
  }

  /** Starts it again on the same port with the same data (stopping it first if it runs); resolves once it serves. */
  restart(): Promise<void> {
    return this.#process.restart();
  }

  /** Sends a four-letter word (`srvr`, `mntr`, `cons`, …; all are enabled) and resolves with the answer. */
  fourLetter(command: string): Promise<string> {
    return this.#process.fourLetter(command);
  }

  /** The last lines of the server's log, for failure messages. */
  logTail(lines?: number): string {
    return this.#process.logTail(lines);
  }

  /** Stops the server and removes its directory; a closed server cannot be restarted. Safe to call twice. */
  close(): Promise<void> {
    return this.#process.stop();
  }

  /** close(), for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
