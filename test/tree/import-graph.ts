/** The import graph of src/ as the tree tests read it: every relative import, type-only and dynamic ones too. */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

export const SRC = resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The module a relative specifier names ('./x.js' is ./x.ts, './dir' is ./dir/index.ts); undefined for packages. */
function resolveSpecifier(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  for (const c of [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')]) if (isFile(c)) return c;
  return undefined;
}

/** Every module's imports and re-exports (type-only and dynamic ones too), as absolute paths. */
export function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root)) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const deps = info.importedFiles.map((i) => resolveSpecifier(file, i.fileName)).filter((d): d is string => d !== undefined);
    graph.set(file, [...new Set(deps)]);
  }
  return graph;
}
