import fs from 'node:fs';
import path from 'node:path';

/**
 * Finding a local ZooKeeper server to launch: a Java binary plus the server's class path.
 *
 * Order: ZOOKEEPER_HOME (an unpacked Apache release: lib/*.jar), then Debian's packages (/usr/share/java, or the
 * directory ZOOKEEPER_JAR_DIR names, which also lets a test hide the system install). Debian's
 * zookeeper.jar carries a manifest Class-Path naming every dependency it needs, so the jar alone is a complete class
 * path; slf4j-simple is added so the server's log goes to stderr, which we capture into a file for error messages.
 */
export interface ZooKeeperInstall {
  java: string;
  classpath: string;
  /** Where the jars came from, for messages. */
  source: string;
}

export const DEBIAN_ZOOKEEPER_JAR = '/usr/share/java/zookeeper.jar';
// slf4j-simple sends the server's log to stderr. The manifest's Class-Path omits netty-codec, which the Netty
// connection factory (the only one that serves a TLS secureClientPort) needs: without it every TLS connection dies
// with NoClassDefFoundError. 3.4's manifest omits slf4j-api, which its server needs to start at all. Each is taken
// from the jar directory, else from the system's (a release unpacked from another Debian suite has only its own jars).
// The manifest leaves out Jetty and Jackson too, so a server with admin.enableServer=true logs "Unable to load
// jetty" and runs no admin server; they are on the class path when installed (libjetty9-java, libjackson2-*), and
// cost nothing while the admin server is off (ours by default).
const SYSTEM_EXTRA_JARS = [
  'slf4j-api.jar',
  'slf4j-simple.jar',
  'netty-codec.jar',
  ...['server', 'servlet', 'util', 'util-ajax', 'http', 'io', 'security'].map((j) => `jetty9-${j}.jar`),
  'servlet-api.jar',
  'jackson-core.jar',
  'jackson-databind.jar',
  'jackson-annotations.jar',
];

export function findZooKeeperInstall(env: NodeJS.ProcessEnv = process.env): ZooKeeperInstall | null {
  const java = findJava(env);
  if (java === null) return null;
  const home = env['ZOOKEEPER_HOME'];
  if (home) {
    const jarDir = debianJarDir(home);
    const fromHome = jarDir !== null ? debianClasspath(jarDir) : zooKeeperHomeClasspath(home);
    if (fromHome !== null) return { java, classpath: fromHome, source: `ZOOKEEPER_HOME=${home}` };
  }
  const dir = systemJarDir(env);
  const classpath = debianClasspath(dir);
  if (classpath !== null) return { java, classpath, source: `${dir} (Debian packages)` };
  return null;
}

/**
 * A ZOOKEEPER_HOME in Debian's layout: a directory of jars holding zookeeper.jar, or the root a Debian package was
 * unpacked into (`dpkg -x`: usr/share/java/zookeeper.jar under it); null for a release directory (lib/*.jar).
 */
function debianJarDir(home: string): string | null {
  for (const dir of [home, path.join(home, 'usr', 'share', 'java')]) if (isFile(path.join(dir, 'zookeeper.jar'))) return dir;
  return null;
}

/** The class path for a directory of Debian's jars holding zookeeper.jar; null when it holds none. */
function debianClasspath(dir: string): string | null {
  const zookeeperJar = path.join(dir, 'zookeeper.jar');
  if (isFile(zookeeperJar)) {
    // Debian's zookeeper.jar names /usr/share/java/zookeeper-jute.jar in its manifest, and a manifest's entries are
    // searched right after the jar naming them: a release unpacked elsewhere (3.9.3 beside the system's 3.8) would
    // load the system's jute classes. Its own jute jar, placed first, wins.
    const ownJute = path.join(dir, 'zookeeper-jute.jar');
    const jars = [...(isFile(ownJute) ? [ownJute] : []), zookeeperJar];
    const systemDir = path.dirname(DEBIAN_ZOOKEEPER_JAR);
    for (const extra of SYSTEM_EXTRA_JARS) {
      const found = [path.join(dir, extra), path.join(systemDir, extra)].find(isFile);
      if (found !== undefined) jars.push(found);
    }
    return jars.join(path.delimiter);
  }
  return null;
}

/** Where Debian's jars are looked for: ZOOKEEPER_JAR_DIR when set, else /usr/share/java. */
function systemJarDir(env: NodeJS.ProcessEnv): string {
  const dir = env['ZOOKEEPER_JAR_DIR'];
  return dir !== undefined && dir !== '' ? dir : path.dirname(DEBIAN_ZOOKEEPER_JAR);
}

/**
 * Thrown when no ZooKeeper server can be started here: no Java, or no ZooKeeper jars (Debian's packages,
 * `ZOOKEEPER_HOME`, or the path given). Its message says what was looked for and what to install.
 */
export class ZooKeeperNotInstalledError extends Error {
  /** Stable, for `catch` blocks and test assertions. */
  readonly code = 'ZOOKEEPER_NOT_INSTALLED' as const;
  /** What is missing: a Java runtime, or the ZooKeeper jars (Java was found). */
  readonly missing: 'java' | 'zookeeper';

  /** Made by the launcher; `message` is the how-to-install text. */
  constructor(missing: 'java' | 'zookeeper', message: string) {
    super(message);
    this.name = 'ZooKeeperNotInstalledError';
    this.missing = missing;
  }
}

/** Like findZooKeeperInstall, but throws ZooKeeperNotInstalledError, with the how-to-install message, when nothing is there. */
export function requireZooKeeperInstall(
  env: NodeJS.ProcessEnv = process.env,
  purpose: InstallPurpose = 'tests',
): ZooKeeperInstall {
  const install = findZooKeeperInstall(env);
  if (install === null) {
    throw new ZooKeeperNotInstalledError(findJava(env) === null ? 'java' : 'zookeeper', missingInstallMessage(env, purpose));
  }
  return install;
}

/** Where to look: a Java home and a ZooKeeper home that replace JAVA_HOME and ZOOKEEPER_HOME, and the environment. */
export interface InstallChoice {
  /** A ZooKeeper release directory (lib/*.jar) or a directory of jars holding zookeeper.jar; no fallback when given. */
  zooKeeperHome?: string | undefined;
  /** A Java home (bin/java) to use instead of JAVA_HOME/PATH; no fallback when given. */
  javaHome?: string | undefined;
  /** The environment to read JAVA_HOME, PATH, ZOOKEEPER_HOME and ZOOKEEPER_JAR_DIR from; default process.env. */
  env?: NodeJS.ProcessEnv | undefined;
}

/** The environment findZooKeeperInstall should see for `choice`: given paths replace the variables, with no fallback. */
export function installEnv(choice: InstallChoice): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...(choice.env ?? process.env) };
  if (choice.javaHome !== undefined) {
    env['JAVA_HOME'] = choice.javaHome;
    env['PATH'] = path.join(choice.javaHome, 'bin');
  }
  if (choice.zooKeeperHome !== undefined) {
    // A release directory is read as ZOOKEEPER_HOME; a plain directory of jars (Debian's layout) as ZOOKEEPER_JAR_DIR.
    env['ZOOKEEPER_HOME'] = choice.zooKeeperHome;
    env['ZOOKEEPER_JAR_DIR'] = choice.zooKeeperHome;
  }
  return env;
}

/**
 * Who is asking: this repository's test suite, the CLI, and an application's tests through zkwire/testing need
 * different first lines and different fixes.
 */
export type InstallPurpose = 'tests' | 'cli' | 'kit';

export function missingInstallMessage(env: NodeJS.ProcessEnv = process.env, purpose: InstallPurpose = 'tests'): string {
  const found = [
    `java: ${findJava(env) ?? 'not found (JAVA_HOME, PATH)'}`,
    `ZooKeeper jars: ${env['ZOOKEEPER_HOME'] ? `none usable under ZOOKEEPER_HOME=${env['ZOOKEEPER_HOME']}, ` : ''}` +
      `${isFile(systemJar(env)) ? systemJar(env) : `no ${systemJar(env)}`}`,
  ];
  const docker = fs.existsSync('/var/run/docker.sock')
    ? `\n  (A Docker socket exists, but zkwire does not start ZooKeeper in containers.)`
    : '';
  const apt = '  sudo apt-get install --no-install-recommends libzookeeper-java libcurator-recipes-java default-jre-headless';
  const home = '  export ZOOKEEPER_HOME=/path/to/apache-zookeeper-3.8.x-bin   # plus Java on PATH or JAVA_HOME';
  const [intro, fixes] =
    purpose === 'cli'
      ? [
          'No --server given, and no local ZooKeeper install was found to start a throwaway server.',
          ['  --server host:port                    # use a running server', apt, home],
        ]
      : purpose === 'kit'
      ? [
          'zkwire/testing starts ZooKeeper servers with the Java and ZooKeeper installed here, and found none.',
          [apt, home, '  or pass { zooKeeperHome, javaHome } to TestingServer.start() / TestingCluster.start()'],
        ]
      : [
          'zkwire tests need a real ZooKeeper server, and none was found.',
          [
            '  sudo bash scripts/setup.sh            # Debian/Ubuntu: installs Java 17, ZooKeeper 3.8 and Curator',
            apt,
            home,
            '  export ZK_CONNECT=host:port           # use a running server (tests that start their own still need a local install)',
          ],
        ];
  return [intro, `  ${found.join('\n  ')}`, 'Fix it with one of:', ...fixes].join('\n') + docker;
}

export function findJava(env: NodeJS.ProcessEnv = process.env): string | null {
  return findJavaTool('java', env);
}

/**
 * A JDK program (java, javac): JAVA_HOME/bin first, then PATH, then /usr/bin when there is no PATH at all; null
 * when none is executable.
 */
export function findJavaTool(name: 'java' | 'javac', env: NodeJS.ProcessEnv = process.env): string | null {
  const candidates: string[] = [];
  if (env['JAVA_HOME']) candidates.push(path.join(env['JAVA_HOME'], 'bin', name));
  for (const dir of (env['PATH'] ?? '').split(path.delimiter)) if (dir) candidates.push(path.join(dir, name));
  if (env['PATH'] === undefined) candidates.push(`/usr/bin/${name}`);
  return candidates.find(isExecutable) ?? null;
}

function systemJar(env: NodeJS.ProcessEnv): string {
  return path.join(systemJarDir(env), 'zookeeper.jar');
}

function zooKeeperHomeClasspath(home: string): string | null {
  const jars = [home, path.join(home, 'lib')].flatMap((dir) => listJars(dir));
  if (!jars.some((jar) => /zookeeper-\d[^/]*\.jar$|zookeeper\.jar$/.test(jar))) return null;
  // conf/ holds the release's logback.xml / log4j.properties; without it the server logs at DEBUG.
  const conf = path.join(home, 'conf');
  return [...(isDirectory(conf) ? [conf] : []), ...jars].join(path.delimiter);
}

function listJars(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.jar'))
      .sort()
      .map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isExecutable(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}
