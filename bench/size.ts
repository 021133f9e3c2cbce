/**
 * bench/size: what an application that uses the client and InterProcessMutex ships. Bundles
 * `import { ZooKeeperClient } from 'zkwire'` (the Node entry, with its node:net transport) plus
 * `import { InterProcessMutex } from 'zkwire/recipes'` with esbuild, minified, tree-shaken, and prints the bytes
 * raw, minified and gzipped, then the bytes by area (protocol, session, client, transport, recipes) and the largest
 * source files in the bundle (esbuild's metafile), which is where to look when the figure grows.
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

/** The layer a bundled file belongs to: its folder under src/ (src/client.ts counts as client, errors and entry apart). */
function areaOf(file: string): string {
  const m = /^src\/([^/]+)\//.exec(file);
  if (m !== null) return m[1] as string;
  return file === 'src/client.ts' ? 'client' : 'errors, entry';
}

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
  const areas = new Map<string, { bytes: number; files: number }>();
  for (const [file, bytes] of inputs) {
    const area = areas.get(areaOf(file)) ?? { bytes: 0, files: 0 };
    areas.set(areaOf(file), { bytes: area.bytes + bytes, files: area.files + (bytes > 0 ? 1 : 0) });
  }
  process.stdout.write('\nby area (minified bytes in the bundle, before gzip)\n');
  process.stdout.write(
    renderTable(
      ['area', 'files', 'bytes', 'share'],
      [...areas]
        .sort((a, b) => b[1].bytes - a[1].bytes)
        .map(([area, { bytes, files }]) => [area, String(files), String(bytes), `${((100 * bytes) / minified).toFixed(0)}%`]),
    ),
  );
  process.stdout.write(`\nlargest inputs (minified bytes in the bundle, before gzip), ${inputs.length} files in all\n`);
  process.stdout.write(renderTable(['file', 'bytes'], inputs.slice(0, top).map(([file, bytes]) => [file, String(bytes)])));
}

main().catch((e: unknown) => {
  process.stderr.write(`bench size: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
