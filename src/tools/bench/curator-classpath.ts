/**
 * Where the Apache Curator 5.x jars are, and the JDK to compile and run a Curator program with. Used by
 * `zkwire bench lock --vs curator`, `npm run bench:peers` and the Curator interop tests, so all three find Curator
 * the same way: an explicit class path (the CLI's --curator-classpath), else CURATOR_CLASSPATH, else Debian's
 * packages in /usr/share/java (libcurator-recipes-java and what it depends on).
 */

import fs from 'node:fs';
import path from 'node:path';
import { findJavaTool } from '../../testing/local-server/install.js';
import { CuratorPeerError } from './curator-error.js';

/** Where Debian installs jars. */
export const DEBIAN_JAVA_DIR = '/usr/share/java';

/**
 * What a Curator 5.4 client needs at run time, by Debian's file names. slf4j-nop keeps Curator's and ZooKeeper's
 * logging off stdout, where the programs print their answers.
 */
export const CURATOR_JARS: readonly string[] = [
  'curator-recipes.jar',
  'curator-framework.jar',
  'curator-client.jar',
  'zookeeper.jar',
  'zookeeper-jute.jar',
  'guava.jar',
  'slf4j-api.jar',
  'slf4j-nop.jar',
];

/** Where to look: `explicit` wins, then CURATOR_CLASSPATH in `env`, then the jars in `javaDir`. */
export interface CuratorClasspathOptions {
  explicit?: string | undefined;
  env?: NodeJS.ProcessEnv;
  /** Default /usr/share/java. */
  javaDir?: string;
}

const INSTALL_HINT = 'install them with apt-get install libcurator-recipes-java';

/**
 * The class path of a Curator 5.x client. An explicit or CURATOR_CLASSPATH path must name entries that exist
 * (a `dir/*` wildcard entry is passed to Java as it is); whether they hold Curator is javac's to say.
 * Throws NO_CURATOR, naming what is missing and how to get it.
 */
export function curatorClasspath(opts: CuratorClasspathOptions = {}): string {
  const env = opts.env ?? process.env;
  const given = opts.explicit ?? (env['CURATOR_CLASSPATH'] || undefined);
  if (given !== undefined) {
    const from = opts.explicit !== undefined ? '--curator-classpath' : 'CURATOR_CLASSPATH';
    const entries = given.split(path.delimiter).filter((e) => e !== '');
    const absent = entries.filter((e) => !e.endsWith('*') && !fs.existsSync(e));
    if (entries.length === 0 || absent.length > 0) {
      throw new CuratorPeerError(
        'NO_CURATOR',
        `Curator jars not found: ${from} ${entries.length === 0 ? 'is empty' : `names missing ${absent.join(', ')}`}; ` +
          `pass the Curator 5.x jars and their dependencies (${CURATOR_JARS.join(', ')}) or ${INSTALL_HINT}`,
      );
    }
    return entries.join(path.delimiter);
  }
  const dir = opts.javaDir ?? DEBIAN_JAVA_DIR;
  const missing = CURATOR_JARS.filter((jar) => !fs.existsSync(path.join(dir, jar)));
  if (missing.length > 0) {
    throw new CuratorPeerError(
      'NO_CURATOR',
      `Curator jars not found: ${dir} lacks ${missing.join(', ')}; ${INSTALL_HINT}, ` +
        'or pass --curator-classpath (or set CURATOR_CLASSPATH) to Curator 5.x jars and their dependencies',
    );
  }
  return CURATOR_JARS.map((jar) => path.join(dir, jar)).join(path.delimiter);
}

/** The JDK's java and javac. */
export interface Jdk {
  java: string;
  javac: string;
}

/** java and javac from JAVA_HOME, PATH or /usr/bin; throws NO_JDK saying which is missing and what to install. */
export function requireJdk(env: NodeJS.ProcessEnv = process.env): Jdk {
  const java = findJavaTool('java', env);
  const javac = findJavaTool('javac', env);
  if (java === null || javac === null) {
    const which = [java === null ? 'java' : '', javac === null ? 'javac' : ''].filter((w) => w !== '').join(' and ');
    throw new CuratorPeerError(
      'NO_JDK',
      `${which} not found (JAVA_HOME, PATH, /usr/bin): the Curator side needs a JDK 11 or later; ` +
        'apt-get install default-jdk-headless, or set JAVA_HOME',
    );
  }
  return { java, javac };
}
