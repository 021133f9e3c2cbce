/**
 * Examples that cannot rot: every ```ts block in README.md and docs/*.md is a complete module importing from
 * 'zkwire'. Each is extracted and type-checked against the package's own types, resolved the way a user's project
 * resolves them (a scratch project whose node_modules/zkwire is this repository, so `exports` and dist/*.d.ts apply).
 *
 * Convention: a block opened with ```ts run is also executed under Node against a real ZooKeeper started by the
 * harness. It connects to 127.0.0.1:2181, which this test replaces with that server's address. Runnable examples
 * share the server, so each uses paths of its own. What an example needs from outside is declared with
 * `declare const`, and such a block is type-checked only. docs/testing.md's node:test examples are run by
 * test/package/package.test.ts instead. (Also described in docs/README.md.)
 */

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedServer } from '../harness/zookeeper.js';
import { typeCheckProject } from '../package/consumer-typecheck.js';
import { assertBuilt } from '../runtimes/consumer-project.js';
import { REPO_ROOT } from '../runtimes/run-runtime.js';
import { DEFAULT_SERVER, extract, markdownFiles, runsInPackageTest } from './markdown-examples.js';

const run = promisify(execFile);

const examples = markdownFiles().flatMap(extract);
// docs/testing.md's node:test examples (a TestingCluster among them) run in test/package/package.test.ts, against the
// installed tarball with their pass and fail counts checked: running them here too doubled that work.
const runnable = examples.filter((e) => e.runs && !runsInPackageTest(e));
let project: string;

beforeAll(() => {
  assertBuilt();
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'zkwire-examples-'));
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'zkwire-examples', private: true, type: 'module' }));
  fs.mkdirSync(path.join(project, 'node_modules', '@types'), { recursive: true });
  fs.symlinkSync(REPO_ROOT, path.join(project, 'node_modules', 'zkwire'), 'dir');
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules', '@types', 'node'), path.join(project, 'node_modules', '@types', 'node'), 'dir');
  // docs/testing.md has a vitest example: it is type-checked like the others (test/package runs it).
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules', 'vitest'), path.join(project, 'node_modules', 'vitest'), 'dir');
  // docs/observability.md wires the channels to OpenTelemetry's SDK (a dev dependency) and runs.
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules', '@opentelemetry'), path.join(project, 'node_modules', '@opentelemetry'), 'dir');
  for (const e of examples) fs.writeFileSync(path.join(project, e.file), e.source);
});

afterAll(() => {
  if (project !== undefined) fs.rmSync(project, { recursive: true, force: true });
});

it('finds the examples, runnable ones included', () => {
  expect(examples.length).toBeGreaterThanOrEqual(8);
  expect(runnable.map((e) => e.where)).toContain(examples.find((e) => e.where.startsWith('README.md'))?.where);
  for (const e of examples) expect(e.source, e.where).toMatch(/from 'zkwire(\/[a-z]+)?'/);
});

// One type-check of every example: more than the default test timeout on a loaded machine.
it('every ```ts example type-checks against the package types', { timeout: 120_000 }, async () => {
  const tsconfig = {
    compilerOptions: {
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'ES2022',
      lib: ['ES2022', 'ESNext.Disposable'],
      types: ['node'],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
    },
    files: examples.map((e) => e.file),
  };
  fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  // In this process, as `tsc -p project --pretty false` prints it, without a node and a compiler to load.
  const output = typeCheckProject(project, new Map());
  // Name the Markdown file and line for each error, not the scratch file.
  const byFile = new Map(examples.map((e) => [e.file, e]));
  const readable = output.replace(/^(\S+\.mts)\((\d+),(\d+)\)/gm, (all, file: string, line: string) => {
    const e = byFile.get(file);
    return e === undefined ? all : `${e.where} (+${Number(line)} lines)`;
  });
  expect(readable).toBe('');
});

describe('```ts run examples against a real server', () => {
  let connectString: string;
  beforeAll(async () => {
    connectString = (await sharedServer()).connectString;
  });

  it.each(runnable.map((e) => [e.where, e] as const))('%s runs', async (_where, e) => {
    const js = ts.transpileModule(e.source.replaceAll(DEFAULT_SERVER, connectString), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const file = path.join(project, e.file.replace(/\.mts$/, '.mjs'));
    fs.writeFileSync(file, js);
    const result = await run(process.execPath, [file], { cwd: project, timeout: 25_000 }).then(
      (r) => ({ ok: true, output: `${r.stdout}${r.stderr}` }),
      (err: { stdout: string; stderr: string; message: string }) => ({ ok: false, output: `${err.message}\n${err.stdout}${err.stderr}` }),
    );
    expect(result.ok, `${e.where}\n${result.output}`).toBe(true);
  });
});
