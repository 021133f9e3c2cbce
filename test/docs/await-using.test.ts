/**
 * docs/runtimes.md says where `await using` runs, once, and every other page that uses it links there. The claims are
 * checked with what this machine has: its Node (20 or 22 must refuse the syntax, 24 and later run it), Deno and Bun
 * from node_modules, TypeScript's output for a down-levelling target and for `esnext`, and the page's plain-JavaScript
 * `try`/`finally` example, run on this Node against a real server.
 */

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedServer } from '../harness/zookeeper.js';
import { REPO_ROOT, runtimeBinary } from '../runtimes/run-runtime.js';
import { DEFAULT_SERVER, markdownFiles } from './markdown-examples.js';

const OWNER = 'docs/runtimes.md';
const ANCHOR = 'await-using-where-it-runs';
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'zkwire-await-using-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A module that disposes one resource with `await using` and says so. */
const PROGRAM = `const resource = { async [Symbol.asyncDispose]() { console.log('disposed'); } };
{
  await using held = resource;
  console.log('in', typeof held);
}
`;

function runFile(binary: string, args: string[], name: string, source: string): { status: number | null; stdout: string; stderr: string } {
  const file = path.join(scratch, name);
  fs.writeFileSync(file, source);
  const r = spawnSync(binary, [...args, file], { cwd: scratch, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const nodeMajor = Number(process.versions.node.split('.')[0]);

describe('the docs', () => {
  it('say it once, in docs/runtimes.md, and every other page that uses it links there', () => {
    const owner = fs.readFileSync(path.join(REPO_ROOT, OWNER), 'utf8');
    expect(owner).toContain('## `await using`: where it runs');
    const claim = 'plain JavaScript on Node 20 and 22 (both in `engines`)';
    for (const file of markdownFiles()) {
      const text = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
      if (file === OWNER) continue;
      expect(text.includes(claim), `${file} repeats the table`).toBe(false);
      if (!text.includes('await using')) continue;
      const link = file === 'README.md' ? `docs/runtimes.md#${ANCHOR}` : `runtimes.md#${ANCHOR}`;
      expect(text, `${file} uses await using without a link to ${OWNER}#${ANCHOR}`).toContain(`](${link})`);
    }
  });
});

describe('where it runs, on this machine', () => {
  it(`Node ${process.versions.node}: ${nodeMajor >= 24 ? 'runs it' : 'a SyntaxError before anything runs'}`, () => {
    expect([20, 22].includes(nodeMajor) || nodeMajor >= 24, `the docs say nothing of Node ${nodeMajor}`).toBe(true);
    const r = runFile(process.execPath, [], 'plain.mjs', PROGRAM);
    if (nodeMajor >= 24) {
      expect(r.stdout).toBe('in object\ndisposed\n');
    } else {
      expect(r.status).not.toBe(0);
      expect(r.stderr).toContain('SyntaxError');
      expect(r.stdout).toBe('');
    }
  });

  it.each(['deno', 'bun'] as const)('%s runs it', (runtime) => {
    const r = runFile(runtimeBinary(runtime), runtime === 'deno' ? ['run', '--quiet'] : [], `${runtime}.mjs`, PROGRAM);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('in object\ndisposed\n');
  });

  it('TypeScript with target es2022 rewrites it and the output runs on this Node; with esnext it is left as it is', () => {
    const emit = (target: ts.ScriptTarget): string =>
      ts.transpileModule(PROGRAM, { compilerOptions: { target, module: ts.ModuleKind.ESNext } }).outputText;
    const lowered = emit(ts.ScriptTarget.ES2022);
    expect(lowered).not.toMatch(/await using/);
    const low = runFile(process.execPath, [], 'es2022.mjs', lowered);
    expect(low.stderr).toBe('');
    expect(low.stdout).toBe('in object\ndisposed\n');
    const kept = emit(ts.ScriptTarget.ESNext);
    expect(kept).toMatch(/await using held = resource/);
    const r = runFile(process.execPath, [], 'esnext.mjs', kept);
    if (nodeMajor >= 24) expect(r.stdout).toBe('in object\ndisposed\n');
    else expect(r.stderr).toContain('SyntaxError');
  });

  it('the plain-JavaScript try/finally example runs on this Node against a real server and closes what it opened', async () => {
    const owner = fs.readFileSync(path.join(REPO_ROOT, OWNER), 'utf8');
    const section = owner.slice(owner.indexOf('## `await using`: where it runs'));
    const block = /```js\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toBeDefined();
    expect(block).not.toContain('await using');
    const server = (await sharedServer()).connectString.split(',')[0]!;
    // The example imports 'zkwire': this package, built (dist/), through a node_modules link as a user has it.
    fs.mkdirSync(path.join(scratch, 'node_modules'), { recursive: true });
    fs.symlinkSync(REPO_ROOT, path.join(scratch, 'node_modules', 'zkwire'), 'dir');
    const r = runFile(process.execPath, [], 'example.mjs', block!.replaceAll(DEFAULT_SERVER, server));
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0); // it exits by itself: the client and the lease were closed
    expect(r.stdout).toMatch(/^holding \/locks\/orders\/_c_[0-9a-f-]{36}-lock-\d{10}\n$/);
  });
});
