/**
 * docs/api.md is the public surface written down: one section per package.json entry, one table row per exported
 * name with its kind. This test holds the build to it, so an export cannot appear, vanish or change from a value to a
 * type without the page changing too: runtime values by importing each entry from dist/ (as a user's program
 * would), every name, types included, by reading each entry's .d.ts with the TypeScript compiler.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { apiDoc, namesOf, ROOT as root } from './api-doc.js';
const VALUE_KINDS = new Set(['class', 'function', 'const']);
const TYPE_KINDS = new Set(['interface', 'type']);

type Conditional = string | { readonly [condition: string]: Conditional };

/** What `specifier` resolves to under Node (the `node` condition, then `default`), as { types, default } paths. */
function resolveEntry(exportsMap: Record<string, Conditional>, specifier: string): { types: string; js: string } {
  const subpath = specifier === 'zkwire' ? '.' : `./${specifier.slice('zkwire/'.length)}`;
  let target = exportsMap[subpath];
  expect(target, `package.json has no export ${subpath}`).toBeDefined();
  while (typeof target === 'object' && !('types' in target && typeof target['types'] === 'string')) {
    target = target['node'] ?? target['default'];
  }
  if (target === undefined || typeof target !== 'object') throw new Error(`cannot resolve ${specifier}`);
  return { types: join(root, target['types'] as string), js: join(root, target['default'] as string) };
}

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, Conditional> };
const { sections, bySpecifier } = apiDoc();
const expectedNames = (section: (typeof sections)[number]): Map<string, string> => namesOf(section, bySpecifier);

const entries = sections.map((section) => ({ section, ...resolveEntry(pkg.exports, section.specifiers[0] as string) }));
const program = ts.createProgram(
  entries.map((e) => e.types),
  { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true, skipLibCheck: true, noEmit: true },
);
const checker = program.getTypeChecker();

/** The exports of a .d.ts, by name, each resolved to the symbol it finally names. */
function declaredExports(file: string): Map<string, ts.Symbol> {
  const source = program.getSourceFile(file);
  if (source === undefined) throw new Error(`${file} is missing: run npm run build`);
  const moduleSymbol = checker.getSymbolAtLocation(source) as ts.Symbol;
  return new Map(
    checker.getExportsOfModule(moduleSymbol).map((s) => [s.name, s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s] as const),
  );
}

describe('docs/api.md and the entries', () => {
  it('has a section for every package.json entry, and every section names one entry', () => {
    const documented = new Set(sections.flatMap((s) => s.specifiers));
    const exported = Object.keys(pkg.exports)
      .filter((k) => k !== './package.json')
      .map((k) => (k === '.' ? 'zkwire' : `zkwire/${k.slice(2)}`));
    expect([...documented].sort()).toEqual(exported.sort());
    for (const section of sections) {
      const files = new Set(section.specifiers.map((spec) => resolveEntry(pkg.exports, spec).js));
      expect(files.size, `${section.specifiers.join(', ')} resolve to different modules`).toBe(1);
      if (section.includes !== undefined) expect(bySpecifier.has(section.includes), section.includes).toBe(true);
    }
  });

  it('lists each name with a known kind', () => {
    for (const section of sections) {
      for (const [name, kind] of section.rows) expect(VALUE_KINDS.has(kind) || TYPE_KINDS.has(kind), `${name}: kind ${kind}`).toBe(true);
    }
  });

  for (const { section, types, js } of entries) {
    const label = section.specifiers.join(', ');

    it(`${label}: the runtime values are the rows of kind class, function or const`, async () => {
      const values = Object.keys((await import(pathToFileURL(js).href)) as object).sort();
      const documented = [...expectedNames(section)].filter(([, kind]) => VALUE_KINDS.has(kind)).map(([name]) => name);
      expect(values).toEqual(documented.sort());
    });

    it(`${label}: the declared names are the rows`, () => {
      expect([...declaredExports(types).keys()].sort()).toEqual([...expectedNames(section).keys()].sort());
    });
  }

  it('gives a name one meaning: a name listed in two entries is one declaration', () => {
    const seen = new Map<string, { entry: string; symbol: ts.Symbol | undefined }>();
    for (const { section, types } of entries) {
      const declared = declaredExports(types);
      for (const name of section.rows.keys()) {
        const symbol = declared.get(name);
        const earlier = seen.get(name);
        if (earlier !== undefined) expect(symbol === earlier.symbol, `${name} in ${earlier.entry} and ${section.specifiers[0]} differ`).toBe(true);
        else seen.set(name, { entry: section.specifiers[0] as string, symbol });
      }
    }
  });
});
