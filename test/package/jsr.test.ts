/**
 * JSR: Deno users get the TypeScript sources (jsr.json). `deno publish --dry-run` must pass: the sources type-check
 * under Deno and the public API has no slow types (every exported symbol has an explicit type). The imports keep
 * their `.js` extensions, which Node's ESM resolution needs for the built files; --sloppy-imports lets Deno map them
 * to the `.ts` sources.
 */

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { REPO_ROOT, runtimeBinary } from '../runtimes/run-runtime.js';

const run = promisify(execFile);

interface Manifest {
  version: string;
  exports: Record<string, unknown>;
}

const read = (file: string): Manifest => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8')) as Manifest;

it('jsr.json offers the same version and entries as package.json', () => {
  const npm = read('package.json');
  const jsr = read('jsr.json');
  expect(jsr.version).toBe(npm.version);
  expect(Object.keys(jsr.exports).sort()).toEqual(Object.keys(npm.exports).filter((k) => k !== './package.json').sort());
});

// Deno type-checks every entry: like the other compile steps, it needs more than the default test timeout when loaded.
it('deno publish --dry-run passes, slow-type check included', { timeout: 120_000 }, async () => {
  const result = await run(runtimeBinary('deno'), ['publish', '--dry-run', '--allow-dirty', '--sloppy-imports'], {
    cwd: REPO_ROOT,
    env: { ...process.env, NO_COLOR: '1' },
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    (r) => ({ ok: true, output: `${r.stdout}${r.stderr}` }),
    (e: { stdout: string; stderr: string }) => ({ ok: false, output: `${e.stdout}${e.stderr}` }),
  );
  expect(result.ok, result.output).toBe(true);
  expect(result.output).toContain('Dry run complete');
  expect(result.output).toContain('src/index.ts');
  expect(result.output).not.toContain('src/cli/');
});
