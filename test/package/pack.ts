/**
 * The package as a user gets it: `npm pack` of the built dist/ into a scratch directory, and a consumer project with
 * that tarball installed (offline: zkwire has no dependencies) next to links to this repository's TypeScript and
 * @types/node. Used by the package checks (package.test.ts) and the workerd smoke run (test/runtimes).
 */

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { assertBuilt } from '../runtimes/consumer-project.js';
import { REPO_ROOT } from '../runtimes/run-runtime.js';

const run = promisify(execFile);

export interface PackedFile {
  readonly path: string;
  readonly size: number;
}

export interface PackedPackage {
  /** The scratch directory holding the tarball and the consumer project; remove() deletes it. */
  readonly dir: string;
  readonly tarball: string;
  /** Bytes of the .tgz. */
  readonly packedSize: number;
  readonly files: readonly PackedFile[];
  /** A project with node_modules/zkwire installed from the tarball, and typescript and @types/node linked in. */
  readonly consumer: string;
  remove(): void;
}

/** npm's own messages on stderr (config warnings) are noise here; failures still throw with both streams. */
async function npm(args: readonly string[], cwd: string): Promise<string> {
  const { stdout } = await run('npm', [...args], { cwd, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } });
  return stdout;
}

/**
 * Packs without running `prepack` (which rebuilds dist/ and would pull it from under test files running in parallel):
 * dist/ must already be fresh, as `npm test` leaves it.
 */
export async function packAndInstall(): Promise<PackedPackage> {
  assertBuilt();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zkwire-package-'));
  try {
    const [info] = JSON.parse(await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], REPO_ROOT)) as {
      filename: string;
      size: number;
      files: PackedFile[];
    }[];
    if (info === undefined) throw new Error('npm pack printed no result');
    const tarball = path.join(dir, info.filename);
    const consumer = path.join(dir, 'consumer');
    fs.mkdirSync(consumer);
    fs.writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'zkwire-consumer', private: true, type: 'module' }));
    await npm(['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock', tarball], consumer);
    for (const name of ['typescript', '@types/node']) {
      const link = path.join(consumer, 'node_modules', name);
      fs.mkdirSync(path.dirname(link), { recursive: true });
      fs.symlinkSync(path.join(REPO_ROOT, 'node_modules', name), link, 'dir');
    }
    return {
      dir,
      tarball,
      packedSize: info.size,
      files: info.files,
      consumer,
      remove: () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
