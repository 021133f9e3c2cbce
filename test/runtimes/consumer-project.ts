/**
 * A throwaway project that depends on zkwire the way a user's would: its own package.json and
 * node_modules/zkwire (a link to this repository), so `import('zkwire')` in it goes through our
 * package.json `exports` and each runtime picks its own condition (node, deno, bun). The smoke suite's
 * TypeScript is transpiled into it (Node 20 cannot run TypeScript; one JavaScript copy serves all three).
 */

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from './run-runtime.js';

export interface ConsumerProject {
  readonly dir: string;
  /** Path (relative to `dir`) of the transpiled entry script. */
  readonly entry: string;
  remove(): void;
}

/** The files of the smoke run, copied in as JavaScript at the same relative paths so their imports hold. */
const SMOKE_FILES = ['test/runtimes/smoke.ts', 'test/runtimes/smoke-entry.ts', 'test/transport/node-stream-socket.ts', 'test/runtimes/testing-kit.ts', 'test/runtimes/in-memory-smoke.ts', 'test/runtimes/in-memory-entry.ts', 'test/security/tls-entry.ts'];

export function makeConsumerProject(): ConsumerProject {
  assertBuilt();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zkwire-consumer-'));
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'zkwire-smoke-consumer', private: true, type: 'module', dependencies: { zkwire: '*' } }, null, 2),
  );
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.symlinkSync(REPO_ROOT, path.join(dir, 'node_modules', 'zkwire'), 'dir');
  for (const file of SMOKE_FILES) {
    const source = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      fileName: path.basename(file),
      compilerOptions: {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        verbatimModuleSyntax: true,
      },
    });
    const target = path.join(dir, file.replace(/\.ts$/, '.js'));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, outputText);
  }
  return {
    dir,
    entry: 'test/runtimes/smoke-entry.js',
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The runtimes load dist/, not src/: fail with the fix in the message rather than test a stale build.
 * (`npm test` builds first; running vitest alone after editing src needs `npm run build`.)
 */
export function assertBuilt(): void {
  const built = path.join(REPO_ROOT, 'dist', 'index.js');
  if (!fs.existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` first (npm test does)`);
  const builtAt = fs.statSync(built).mtimeMs;
  const newer = newestSource(path.join(REPO_ROOT, 'src'));
  if (newer !== undefined && newer.mtimeMs > builtAt) {
    throw new Error(`dist/ is older than ${path.relative(REPO_ROOT, newer.file)}: run \`npm run build\` first (npm test does)`);
  }
}

function newestSource(dir: string): { file: string; mtimeMs: number } | undefined {
  let newest: { file: string; mtimeMs: number } | undefined;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const candidate = entry.isDirectory()
      ? newestSource(full)
      : entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')
        ? { file: full, mtimeMs: fs.statSync(full).mtimeMs }
        : undefined;
    if (candidate !== undefined && (newest === undefined || candidate.mtimeMs > newest.mtimeMs)) newest = candidate;
  }
  return newest;
}
