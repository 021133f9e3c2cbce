/**
 * The bundle bench/size measures: `ZooKeeperClient` from the Node entry plus `InterProcessMutex`, bundled from the
 * source by esbuild (minified, tree-shaken, ESM), as an application that uses the two would ship them.
 */

import { build, type Plugin } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The repository root, whether this file runs compiled (from .build/bench/) or as source (under a test runner). */
export const ROOT = fileURLToPath(new URL(import.meta.url.includes('/.build/') ? '../../' : '../', import.meta.url));

const ENTRY = `
export { ZooKeeperClient } from './src/node.ts';
export { InterProcessMutex } from './src/recipes/locks/mutex.ts';
`;

/** Bundles the entry (with `plugins`, e.g. one that leaves a part out) and measures it. */
export async function measure(plugins: Plugin[] = []) {
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: ROOT, loader: 'ts', sourcefile: 'size-entry.ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins,
  });
  const out = result.outputFiles[0];
  if (out === undefined) throw new Error('esbuild produced no output');
  return { result, minified: out.contents.length, gzipped: gzipSync(out.contents, { level: 9 }).length };
}

