/**
 * `npm run docs`: the TypeDoc reference of every public entry (typedoc.json). Its validation is strict: an exported
 * declaration without a doc comment, a broken {@link} or a public type that no entry exports fails the build
 * (treatWarningsAsErrors), so this test fails too.
 */

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { REPO_ROOT } from '../runtimes/run-runtime.js';

const run = promisify(execFile);
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'zkwire-api-'));

afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

// A whole TypeDoc run but for its type check (--skipErrorChecking): `npm test` has type-checked the same sources
// with the same compiler twice already (the build and the typecheck step), and TypeDoc's own check of them was half
// of its CPU (34 s of user time became 16 s, rendering unchanged). Documentation, link and export validation is
// TypeDoc's conversion, which runs in full. On a loaded machine it needs more than the suite's default test timeout.
it('builds the API reference with every export documented', { timeout: 120_000 }, async () => {
  const typedoc = path.join(REPO_ROOT, 'node_modules', 'typedoc', 'bin', 'typedoc');
  const result = await run(process.execPath, [typedoc, '--out', out, '--skipErrorChecking'], {
    cwd: REPO_ROOT,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    (r) => ({ ok: true, output: `${r.stdout}${r.stderr}` }),
    (e: { stdout: string; stderr: string }) => ({ ok: false, output: `${e.stdout}${e.stderr}` }),
  );
  expect(result.ok, result.output).toBe(true);
  expect(result.output).not.toMatch(/\[warning\]|\[error\]/);
  // One page per entry point, and the API a newcomer looks for first.
  const modules = fs.readdirSync(path.join(out, 'modules'));
  expect(modules.sort()).toEqual(['zkwire_discovery.html', 'zkwire_kerberos.html', 'zkwire_node.html', 'zkwire_portable.html', 'zkwire_protocol.html', 'zkwire_recipes.html', 'zkwire_testing.html', 'zkwire_testing_portable.html', 'zkwire_tools.html']);
  expect(fs.readFileSync(path.join(out, 'functions', 'zkwire_portable.connect.html'), 'utf8')).toContain('options.transport');
});
