/**
 * The floors of src/, lowest first, and the rule that an import only goes down (or stays on its floor): the
 * codec knows nothing of sessions, the session nothing of the client, the recipes only the client, the test kit,
 * the tools and the CLI stand on what is below them. A wrong arrow fails here rather than in a review; the list is
 * the one docs/README.md describes ("Floors").
 */

import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, SRC } from './import-graph.js';

/**
 * Lowest first. A directory is named with its slash; a file at the top of src/ by its name. `errors.ts` sits with
 * the codec because every floor from the transport up reports through it and it needs only protocol types.
 * `kerberos/` (SASL GSSAPI) stands on the session's SASL interface. The package's entry files (what package.json
 * exports) are the `entries` floor, found from package.json; the CLI is above them because it uses the library
 * the way a user does, through the entries.
 */
const FLOORS: readonly { readonly name: string; readonly holds: readonly string[] }[] = [
  { name: 'protocol', holds: ['protocol/', 'types/', 'errors.ts'] },
  { name: 'util', holds: ['util/'] },
  { name: 'transport', holds: ['transport/'] },
  { name: 'session', holds: ['session/', 'kerberos/'] },
  { name: 'client', holds: ['client/', 'client.ts'] },
  { name: 'recipes', holds: ['recipes/'] },
  { name: 'testing', holds: ['testing/'] },
  { name: 'tools', holds: ['tools/'] },
  { name: 'entries', holds: [] },
  { name: 'cli', holds: ['cli/'] },
];

/**
 * The tools' own wings, lowest first; wings on one level do not import each other. `shared` holds what several
 * tools use (byte buffers, figures, tables); files at the top of tools/ are on the last level.
 */
const TOOL_WINGS: readonly (readonly string[])[] = [['shared'], ['capture', 'txnlog', 'tree'], ['trace'], ['decode'], ['analyze'], ['bench'], ['*.ts']];

/** The files at the top of src/ that package.json exports (./dist/x.js is src/x.ts). */
function entryFiles(): Set<string> {
  const pkg = JSON.parse(readFileSync(join(SRC, '../package.json'), 'utf8')) as { exports: unknown };
  const found = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      const m = /^\.\/dist\/([^/]+)\.js$/.exec(v);
      if (m !== null) found.add(`${m[1]!}.ts`);
    } else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(pkg.exports);
  return found;
}

/** The floor's index of a module (path relative to src/), or undefined when the floor list does not place it. */
function floorOf(rel: string, entries: ReadonlySet<string>): number | undefined {
  const slash = rel.indexOf('/');
  const key = slash < 0 ? rel : rel.slice(0, slash + 1);
  const i = FLOORS.findIndex((f) => f.holds.includes(key));
  if (i >= 0) return i;
  if (slash < 0 && entries.has(rel)) return FLOORS.findIndex((f) => f.name === 'entries');
  return undefined;
}

function wingOf(rel: string): number | undefined {
  const parts = rel.split('/');
  const wing = parts.length === 2 ? '*.ts' : parts[1]!;
  const i = TOOL_WINGS.findIndex((level) => level.includes(wing));
  return i < 0 ? undefined : i;
}

type RelGraph = ReadonlyMap<string, readonly string[]>;

function relGraph(): RelGraph {
  return new Map([...importGraph(SRC)].map(([f, deps]) => [relative(SRC, f), deps.map((d) => relative(SRC, d))]));
}

/** Modules the floor list does not place, each with what to do about it. */
function unplaced(graph: RelGraph, entries: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  for (const f of graph.keys()) {
    if (floorOf(f, entries) === undefined) out.add(`src/${f.includes('/') ? f.slice(0, f.indexOf('/') + 1) : f} is on no floor: add it to FLOORS in test/tree/floors.test.ts (and docs/README.md)`);
    if (f.startsWith('tools/') && wingOf(f) === undefined) out.add(`src/${f.split('/').slice(0, 2).join('/')}/ is in no wing of tools/: add it to TOOL_WINGS in test/tree/floors.test.ts`);
  }
  return [...out];
}

/** Every import that goes up a floor, as "from (floor) -> to (floor)". */
function upwardArrows(graph: RelGraph, entries: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const [from, deps] of graph) {
    const a = floorOf(from, entries);
    for (const to of deps) {
      const b = floorOf(to, entries);
      if (a !== undefined && b !== undefined && b > a) out.push(`${from} (${FLOORS[a]!.name}) -> ${to} (${FLOORS[b]!.name})`);
    }
  }
  return out;
}

/** Imports between tools' wings that go up a level or sideways. */
function wingArrows(graph: RelGraph): string[] {
  const out: string[] = [];
  for (const [from, deps] of graph) {
    if (!from.startsWith('tools/')) continue;
    const a = wingOf(from);
    for (const to of deps) {
      if (!to.startsWith('tools/')) continue;
      const b = wingOf(to);
      const sameWing = from.split('/')[1] === to.split('/')[1] || (from.split('/').length === 2 && to.split('/').length === 2);
      if (a !== undefined && b !== undefined && !sameWing && b >= a) out.push(`${from} -> ${to}`);
    }
  }
  return out;
}

/** CLI imports of the client or session modules: the CLI uses the client the way a user does, through the entries. */
function cliInternals(graph: RelGraph): string[] {
  const out: string[] = [];
  for (const [from, deps] of graph) {
    if (!from.startsWith('cli/')) continue;
    for (const to of deps) if (to === 'client.ts' || to.startsWith('client/') || to.startsWith('session/')) out.push(`${from} -> ${to}`);
  }
  return out;
}

describe('the floors of src/', () => {
  const entries = entryFiles();

  it('finds an upward arrow, an unplaced directory, a sideways tool import and a CLI shortcut (the checks can fail)', () => {
    const graph: RelGraph = new Map([
      ['session/a.ts', ['client/b.ts', 'protocol/c.ts']],
      ['client/b.ts', ['session/a.ts']],
      ['gadgets/d.ts', []],
      ['tools/trace/e.ts', ['tools/decode/f.ts', 'tools/shared/g.ts']],
      ['tools/capture/h.ts', ['tools/txnlog/i.ts']],
      ['cli/j.ts', ['session/a.ts', 'node.ts']],
    ]);
    expect(upwardArrows(graph, entries)).toEqual(['session/a.ts (session) -> client/b.ts (client)']);
    expect(unplaced(graph, entries)).toEqual([
      'src/gadgets/ is on no floor: add it to FLOORS in test/tree/floors.test.ts (and docs/README.md)',
    ]);
    expect(wingArrows(graph)).toEqual(['tools/trace/e.ts -> tools/decode/f.ts', 'tools/capture/h.ts -> tools/txnlog/i.ts']);
    expect(cliInternals(graph)).toEqual(['cli/j.ts -> session/a.ts']);
  });

  it('reads the entries from package.json', () => {
    expect([...entries].sort()).toEqual(expect.arrayContaining(['index.ts', 'node.ts', 'testing.ts', 'tools.ts']));
    expect(floorOf('node.ts', entries)).toBe(FLOORS.findIndex((f) => f.name === 'entries'));
  });

  it('places every module on a floor', () => {
    const problems = unplaced(relGraph(), entries);
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('has no import going up a floor', () => {
    const arrows = upwardArrows(relGraph(), entries);
    expect(arrows, `upward imports:\n${arrows.join('\n')}`).toEqual([]);
  });

  it('has the tools import only lower wings (shared below the tools that share it)', () => {
    const arrows = wingArrows(relGraph());
    expect(arrows, `tool imports going up or sideways:\n${arrows.join('\n')}`).toEqual([]);
  });

  it('has the CLI use the client through the entries, not the client or session modules', () => {
    const found = cliInternals(relGraph());
    expect(found, `CLI imports of client internals:\n${found.join('\n')}`).toEqual([]);
  });
});
