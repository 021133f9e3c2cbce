/**
 * The Curator side of `bench lock --vs curator`: finding the JDK and the Curator jars, compiling the shipped Java
 * program once, and running one round of one workload in a child JVM.
 */

import { spawn } from 'node:child_process';
import path from 'node:path';
import { CuratorPeerError } from './curator-error.js';
import { curatorClasspath, requireJdk, type CuratorClasspathOptions } from './curator-classpath.js';
import { CURATOR_LOCK_BENCH_CLASS, CURATOR_LOCK_BENCH_SOURCE } from './curator-lock-bench-source.js';
import { compileJavaOnce } from './javac.js';
import { VS_SEMAPHORE_LEASES, VS_SESSIONS, type RoundFigures, type RoundOptions } from './vs-round.js';

/** The compiled Curator program, ready to run. */
export interface CuratorProgram {
  java: string;
  /** Curator's jars (what was compiled against). */
  classpath: string;
  /** The directory holding the compiled classes. */
  classes: string;
}

/** How long a stopped Curator round may take to print its figures and close its sessions before it is killed. */
export const CURATOR_STOP_GRACE_MS = 5000;

/**
 * Finds java, javac and the Curator jars and compiles the program (once per content). Throws a CuratorPeerError:
 * NO_JDK, NO_CURATOR or JAVAC_FAILED.
 */
export function prepareCurator(opts: CuratorClasspathOptions = {}): CuratorProgram {
  const jdk = requireJdk(opts.env);
  const classpath = curatorClasspath(opts);
  const classes = compileJavaOnce({ className: CURATOR_LOCK_BENCH_CLASS, source: CURATOR_LOCK_BENCH_SOURCE, classpath, javac: jdk.javac });
  return { java: jdk.java, classpath, classes };
}

/** A round's options, plus who to tell the child JVM's pid. */
export interface CuratorRoundOptions extends RoundOptions {
  onStart?: (pid: number) => void;
}

/**
 * One round in a child JVM. `signal` stops it early: the program is told on stdin, prints its figures so far and
 * closes its sessions; if it has not exited after CURATOR_STOP_GRACE_MS it is killed. The promise settles only once
 * the JVM is gone. Rejects with CURATOR_FAILED when the program fails (its first error line in the message).
 */
export function curatorRound(program: CuratorProgram, opts: CuratorRoundOptions): Promise<RoundFigures> {
  const { signal } = opts;
  return new Promise((resolve, reject) => {
    const args = [
      '-cp',
      [program.classes, program.classpath].join(path.delimiter),
      CURATOR_LOCK_BENCH_CLASS,
      opts.connectString,
      opts.workload,
      String(opts.seconds),
      opts.lockPath,
      String(VS_SESSIONS),
      String(VS_SEMAPHORE_LEASES),
    ];
    // Its own process group, so a Ctrl-C at the terminal reaches only us: we stop the JVM through stdin, which
    // lets it print its figures and close its sessions (and it stops the same way if we die: stdin closes).
    const child = spawn(program.java, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let out = '';
    let err = '';
    let killer: NodeJS.Timeout | undefined;
    const stop = (): void => {
      child.stdin.end('stop\n');
      killer = setTimeout(() => child.kill('SIGKILL'), CURATOR_STOP_GRACE_MS);
    };
    child.stdin.on('error', () => {}); // the JVM may be gone already
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.once('spawn', () => {
      if (child.pid !== undefined) opts.onStart?.(child.pid);
    });
    child.once('error', (e) => {
      signal?.removeEventListener('abort', stop);
      reject(new CuratorPeerError('NO_JDK', `cannot start ${program.java}: ${e.message}; install a JDK (apt-get install default-jdk-headless) or set JAVA_HOME`));
    });
    child.once('close', (code, sig) => {
      signal?.removeEventListener('abort', stop);
      if (killer !== undefined) clearTimeout(killer);
      const line = out.trim().split('\n').reverse().find((l) => l.startsWith('{'));
      if (code === 0 && line !== undefined) return resolve(JSON.parse(line) as RoundFigures);
      if (signal?.aborted === true) return resolve(emptyFigures());
      const why = err.split('\n').map((l) => l.trim()).find((l) => /Exception|Error/.test(l)) ?? err.trim().split('\n')[0] ?? '';
      reject(
        new CuratorPeerError(
          'CURATOR_FAILED',
          `the Curator side (${opts.workload}) exited with ${sig ?? `code ${String(code)}`}${why === '' ? '' : `: ${why}`}; ` +
            'check that the class path holds Curator 5.x with its dependencies and that the server is reachable',
        ),
      );
    });
    if (signal?.aborted === true) stop();
    else signal?.addEventListener('abort', stop, { once: true });
  });
}

/** The figures of a round that measured nothing. */
export function emptyFigures(): RoundFigures {
  const none = { count: 0, p50: 0, p99: 0 };
  return { acquisitions: 0, elapsedMs: 0, acquire: none, cycle: { ...none }, handoff: { ...none } };
}
