import type { Clock } from '../session/clock.js';
import type { CleanupRegistry } from './local-server/cleanup.js';

/** What every server the kit starts takes: the install to use, zoo.cfg additions, and the timers to start it on. */
export interface TestingServerOptions {
  /**
   * Which ZooKeeper to run: a release directory (`lib/*.jar`, as in `apache-zookeeper-3.9.x-bin`), a directory of
   * Debian's jars holding `zookeeper.jar`, or a directory Debian's `libzookeeper-java` package was unpacked into
   * (`dpkg -x`: `usr/share/java/zookeeper.jar` under it), so tests can run on several versions side by side. In
   * Debian's layout the directory's own `zookeeper-jute.jar` goes first on the class path (the jar's manifest names
   * the system's). Default: `ZOOKEEPER_HOME`, then Debian's packages (`/usr/share/java`). When given, nothing else
   * is tried.
   */
  zooKeeperHome?: string | undefined;
  /** A Java home (`bin/java`). Default: `JAVA_HOME`, then `java` on `PATH`. When given, nothing else is tried. */
  javaHome?: string | undefined;
  /** The environment the install is looked up in (`JAVA_HOME`, `PATH`, `ZOOKEEPER_HOME`); default `process.env`. */
  env?: NodeJS.ProcessEnv | undefined;
  /** zoo.cfg `tickTime` in ms (default 2000, so session timeouts are clamped to 4000..40000 ms). */
  tickTime?: number | undefined;
  /** Extra or overriding zoo.cfg keys, e.g. `{ maxSessionTimeout: '10000' }`. */
  extraConfig?: Record<string, string> | undefined;
  /** How long a start or restart may take before it fails with the server's log; default 30 s. */
  startTimeoutMs?: number | undefined;
  /** JVM options replacing the defaults (a small heap and flags for a fast start). */
  jvmFlags?: readonly string[] | undefined;
  /**
   * Timers for starting, probing and stopping servers; default the runtime's. Tests that fake the runtime's timers
   * (`vi.useFakeTimers()`) pass real ones captured before, or servers never come up while time stands still.
   */
  clock?: Clock | undefined;
  /**
   * Where started JVMs and their directories are registered, to be killed and removed when the process exits or
   * is interrupted (SIGINT, SIGTERM, SIGHUP); default the kit's own registry.
   */
  cleanup?: CleanupRegistry | undefined;
}
