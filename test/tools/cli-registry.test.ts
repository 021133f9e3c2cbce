/**
 * The CLI's command registry (src/cli/commands/index.ts) loads a command's module only when it runs: each entry's
 * name must be the name its module gives the command, and running one command must not load the others.
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { commandEntries, loadCommand } from '../../src/cli/commands/index.js';

it('names each command as its module does, once, and loads nothing for an unknown name', async () => {
  const names = commandEntries.map((e) => e.name);
  expect(new Set(names).size).toBe(names.length);
  for (const e of commandEntries) expect((await e.load()).name, e.name).toBe(e.name);
  expect(await loadCommand('nosuch')).toBeUndefined();
});

it('zkwire ls --help loads the ls command, not the analyzer, the benches or the capture readers', () => {
  const main = join(process.cwd(), 'dist/cli/main.js');
  const log = join(mkdtempSync(join(tmpdir(), 'zkwire-registry-')), 'loaded.txt');
  // A loader hook that writes down every module of dist/ the process loads.
  const hook = `import fs from 'node:fs'; export async function load(url, context, next) { if (url.includes('/dist/')) fs.appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
  try {
    const r = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, main, 'ls', '--help'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Usage: zkwire ls/);
    const loaded = readFileSync(log, 'utf8').split('\n');
    expect(loaded.some((u) => u.endsWith('/dist/cli/commands/ls.js'))).toBe(true);
    for (const other of ['/dist/cli/commands/bench.js', '/dist/cli/commands/analyze.js', '/dist/tools/analyze/', '/dist/tools/capture/', '/dist/tools/bench/']) {
      expect(loaded.filter((u) => u.includes(other)), other).toEqual([]);
    }
  } finally {
    rmSync(join(log, '..'), { recursive: true, force: true });
  }
});
