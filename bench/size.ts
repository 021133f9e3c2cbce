/**
 * bench/size: what an application that uses the client and InterProcessMutex ships. Bundles
 * `import { ZooKeeperClient } from 'zkwire'` (the Node entry, with its node:net transport) plus
 * `import { InterProcessMutex } from 'zkwire/recipes'` with esbuild, minified, tree-shaken, and prints the bytes
 * raw, minified and gzipped, then the largest source files in the bundle (esbuild's metafile), which is where to
 * look when the figure grows.
 *
 *   npm run bench:size [-- --top 15]
 */

import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { renderTable } from '../src/tools/bench/table.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TARGET_GZIP = 22 * 1024;

const ENTRY = `
export { ZooKeeperClient } from './src/node.ts';
export { InterProcessMutex } from './src/recipes/locks/mutex.ts';
`;

const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const top = Number(args[args.indexOf('--top') + 1] ?? 12) || 12;
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
  });
  const out = result.outputFiles[0];
  if (out === undefined) throw new Error('esbuild produced no output');
  const minified = out.contents.length;
  const gzipped = gzipSync(out.contents, { level: 9 }).length;
  process.stdout.write(`\nclient (Node entry) + InterProcessMutex, esbuild ${(await import('esbuild')).version}, minified\n`);
  process.stdout.write(
    renderTable(
      ['figure', 'bytes', 'KB', 'target'],
      [
        ['minified', String(minified), kb(minified), ''],
        ['minified + gzip -9', String(gzipped), kb(gzipped), `≤ ${kb(TARGET_GZIP)}${gzipped <= TARGET_GZIP ? ' ✓' : ' ✗'}`],
      ],
    ),
  );
  const output = Object.values(result.metafile.outputs)[0];
  const inputs = Object.entries(output?.inputs ?? {})
    .map(([file, info]) => [file, info.bytesInOutput] as const)
    .sort((a, b) => b[1] - a[1]);
  process.stdout.write(`\nlargest inputs (minified bytes in the bundle, before gzip), ${inputs.length} files in all\n`);
  process.stdout.write(renderTable(['file', 'bytes'], inputs.slice(0, top).map(([file, bytes]) => [file, String(bytes)])));
}

main().catch((e: unknown) => {
  process.stderr.write(`bench size: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
