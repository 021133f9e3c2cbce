/**
 * Compiling a one-file Java program shipped as text, once per content: the class files go to a directory in the
 * system temp directory named by a hash of the source, the class path and the compiler, so later runs (and other
 * processes) reuse them. The compile happens in a private directory renamed into place, so a concurrent run never
 * sees half-written classes.
 */

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CuratorPeerError } from './curator-error.js';

/** One Java source file to compile. */
export interface JavaProgram {
  /** The public class, which names the file: `${className}.java`. */
  className: string;
  source: string;
  /** What it compiles against. */
  classpath: string;
  /** The javac to use. */
  javac: string;
  /**
   * Other source files compiled with it (helper classes, classes in other packages), by their path relative to the
   * source root, e.g. `org/example/Payload.java`.
   */
  companions?: readonly { path: string; source: string }[];
}

/** The directory holding `${className}.class`, compiling the source there first if no earlier run did. */
export function compileJavaOnce(program: JavaProgram): string {
  const companions = program.companions ?? [];
  const hash = createHash('sha256').update(program.source).update('\0').update(program.classpath).update('\0').update(program.javac);
  for (const c of companions) hash.update('\0').update(c.path).update('\0').update(c.source);
  const target = path.join(os.tmpdir(), `zkwire-java-${program.className}-${hash.digest('hex').slice(0, 16)}`);
  if (fs.existsSync(path.join(target, `${program.className}.class`))) return target;
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), `zkwire-java-${program.className}-build-`));
  const file = path.join(staging, `${program.className}.java`);
  fs.writeFileSync(file, program.source);
  const sourceDir = fs.mkdtempSync(path.join(os.tmpdir(), `zkwire-java-${program.className}-src-`));
  const others = companions.map((c) => {
    const at = path.join(sourceDir, c.path);
    fs.mkdirSync(path.dirname(at), { recursive: true });
    fs.writeFileSync(at, c.source);
    return at;
  });
  const result = spawnSync(program.javac, ['-nowarn', '-cp', program.classpath, '-d', staging, file, ...others], { encoding: 'utf8' });
  fs.rmSync(file, { force: true });
  fs.rmSync(sourceDir, { recursive: true, force: true });
  if (result.status !== 0) {
    fs.rmSync(staging, { recursive: true, force: true });
    const output = `${result.error?.message ?? ''}\n${result.stdout ?? ''}${result.stderr ?? ''}`;
    const firstError = output.split('\n').find((l) => /error:|Error/.test(l))?.trim() ?? `exit ${String(result.status)}`;
    throw new CuratorPeerError(
      'JAVAC_FAILED',
      `javac could not compile ${program.className} against ${program.classpath}: ${firstError.replace(/^.*?\.java:\d+: /, '')}; ` +
        'the class path needs Apache Curator 5.x (curator-recipes, curator-framework, curator-client) and ZooKeeper jars',
    );
  }
  try {
    fs.renameSync(staging, target);
  } catch {
    // another process won the race with the same bytes
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return target;
}
