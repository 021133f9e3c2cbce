/**
 * `npm pack` refuses a checkout whose dist/ is missing or half-written (a concurrent rebuild deleted it): prepack
 * ends with scripts/check-pack.mjs, which fails naming the files the package's entries point at and cannot find.
 * The packs here run in a scratch copy of package.json with only that check as prepack: the real prepack also
 * rebuilds dist/, which would pull it from under the test files running beside this one.
 */

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../runtimes/run-runtime.js';

const run = promisify(execFile);
const CHECK = 'node scripts/check-pack.mjs';
const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string>; devDependencies?: unknown };

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'zkwire-pack-guard-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A copy of the package's manifest and check script, with `dist` files as given; `npm pack --dry-run` in it. */
async function packWith(name: string, distFiles: Record<string, string>): Promise<{ code: number; stderr: string; files: string[] }> {
  const dir = path.join(scratch, name);
  fs.mkdirSync(path.join(dir, 'scripts'), { recursive: true });
  fs.copyFileSync(path.join(REPO_ROOT, 'scripts/check-pack.mjs'), path.join(dir, 'scripts/check-pack.mjs'));
  const { devDependencies: _dev, ...manifest } = pkg;
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ ...manifest, scripts: { prepack: CHECK } }));
  for (const [file, text] of Object.entries(distFiles)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  try {
    const { stdout, stderr } = await run('npm', ['pack', '--dry-run', '--json'], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
    const [info] = JSON.parse(stdout) as { files: { path: string }[] }[];
    return { code: 0, stderr, files: info!.files.map((f) => f.path) };
  } catch (e) {
    const err = e as { code: number; stderr: string };
    return { code: err.code, stderr: err.stderr, files: [] };
  }
}

/** Every file the manifest's entries name, as check-pack.mjs collects them. */
function entryFiles(): string[] {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.add(v.replace(/^\.\//, ''));
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
  };
  const p = pkg as unknown as Record<string, unknown>;
  walk([p['main'], p['types'], p['bin'], p['exports']]);
  return [...out].filter((f) => f.startsWith('dist/'));
}

describe('npm pack guard', () => {
  it('prepack runs the check after the build, and publishing runs it too', () => {
    expect(pkg.scripts['prepack']).toBe(`npm run build && ${CHECK}`);
    expect(pkg.scripts['prepublishOnly']).toBe(CHECK);
  });

  it('no dist/: npm pack fails, naming what is missing', async () => {
    const r = await packWith('no-dist', {});
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/zkwire pack check: \d+ of the \d+ files the package's entries name are not there/);
    expect(r.stderr).toContain('./dist/node.js (missing)');
    expect(r.stderr).toContain('dist/ is missing or being rebuilt');
  });

  it('a dist/ half-written (one entry there, one empty): npm pack fails naming the others', async () => {
    const r = await packWith('half', { 'dist/node.js': 'export {};\n', 'dist/index.js': '' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('./dist/index.js (empty)');
    expect(r.stderr).not.toContain('./dist/node.js');
    expect(r.stderr).toContain('./dist/cli/main.js (missing)');
  });

  it('every entry present: npm pack goes on and packs them', async () => {
    const files = entryFiles();
    const r = await packWith('whole', Object.fromEntries(files.map((f) => [f, '// built\n'])));
    expect(r.code, r.stderr).toBe(0);
    expect(r.files).toEqual(expect.arrayContaining(files));
  });
});
