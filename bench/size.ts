/**
 * bench/size: what an application that uses the client and InterProcessMutex ships. Bundles
 * `import { ZooKeeperClient } from 'zkwire'` (the Node entry, with its node:net transport) plus
 * `import { InterProcessMutex } from 'zkwire'` with esbuild, minified, tree-shaken, and prints the bytes
 * raw, minified and gzipped, then the bytes by area (protocol, session, client, transport, recipes) and the largest
 * source files in the bundle (esbuild's metafile), which is where to look when the figure grows.
 *
 * With `--price`, it prints instead what each optional part of the client costs (bench/size-price.ts).
 *
 *   npm run bench:size [-- --top 15 | --price]
 */

import { renderTable } from '../src/tools/shared/table.js';
import { measure, ROOT } from './size-bundle.js';
import { leaveOut, pricedParts } from './size-price.js';

const TARGET_GZIP = 22 * 1024;

const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;

/** The layer a bundled file belongs to: its folder under src/ (src/client.ts counts as client, errors and entry apart). */
function areaOf(file: string): string {
  const m = /^src\/([^/]+)\//.exec(file);
  if (m !== null) return m[1] as string;
  return file === 'src/client.ts' ? 'client' : 'errors, entry';
}

/** `--price`: the bytes each optional part costs, by bundling again without it. */
async function price(): Promise<void> {
  const base = await measure();
  const rows: string[][] = [['(everything)', String(base.minified), String(base.gzipped), '']];
  for (const part of pricedParts()) {
    const { minified, gzipped } = await measure([leaveOut(part, ROOT)]);
    rows.push([part.name, String(minified), String(gzipped), String(base.gzipped - gzipped)]);
  }
  process.stdout.write('\nclient (Node entry) + InterProcessMutex, each part left out in turn (bytes)\n');
  process.stdout.write(renderTable(['left out', 'minified', 'min+gzip', 'saved (min+gzip)'], rows));
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--price')) return price();
  const top = Number(args[args.indexOf('--top') + 1] ?? 12) || 12;
  const { result, minified, gzipped } = await measure();
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
