// Run by `prepack` after the build, and by `prepublishOnly`: refuses to pack when a file the package's entries name
// (main, types, bin, every `exports` target) is missing or empty. A dist/ deleted or half-written by a concurrent
// rebuild once packed into a 3-file tarball without a word; this makes it fail loudly instead. It writes only to
// stderr: `npm pack --json` shares its stdout with the scripts it runs.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = process.cwd();
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Every file path a package.json field names: strings, nested condition objects, the bin map. */
function targets(value, out) {
  if (typeof value === 'string') out.add(value);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) targets(v, out);
  return out;
}

const named = targets([pkg.main, pkg.types, pkg.bin, pkg.exports], new Set());
const missing = [];
for (const file of [...named].sort()) {
  if (file.includes('*')) continue; // a pattern export names no one file
  let size = -1;
  try {
    size = statSync(join(root, file)).size;
  } catch {
    // missing: reported below
  }
  if (size <= 0) missing.push(size < 0 ? `${file} (missing)` : `${file} (empty)`);
}
if (missing.length > 0) {
  process.stderr.write(
    `zkwire pack check: ${missing.length} of the ${named.size} files the package's entries name are not there:\n` +
      missing.map((m) => `  ${m}\n`).join('') +
      'dist/ is missing or being rebuilt: run `npm run build` (alone) and pack again.\n',
  );
  process.exit(1);
}
process.stderr.write(`zkwire pack check: the ${named.size} files the package's entries name are all there\n`);
