/**
 * The facts the docs state that a test can check, so the next stale statement fails here rather than misleads a
 * reader (issue #30 item 5 found eleven):
 * - an export named together with its entry ("`X` from `zkwire/recipes`", an inline `import { X } from '…'`, a row of
 *   a table whose first cell is an entry) is exported by that entry, as docs/api.md lists it;
 * - a repository path in backquotes (`src/…`, `test/…`, `bench/…`, `docs/…`, `scripts/…`) exists;
 * - a `zkwire <command>` names a command of the CLI's command table.
 * Code blocks are left to test/docs/examples.test.ts, which compiles them, except for the commands they run.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/cli/commands/index.js';
import { apiDoc, namesOf, ROOT } from './api-doc.js';

const commands = await loadCommands();

const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const { sections, bySpecifier } = apiDoc();
const exportsOf = new Map([...bySpecifier].map(([spec, section]) => [spec, namesOf(section, bySpecifier)]));
/** Every name some entry exports: a backquoted word that is none of these is not a claim about an export. */
const allNames = new Set(sections.flatMap((s) => [...s.rows.keys()]));

const FENCE = /^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm;

/** Markdown without its fenced code blocks. */
function prose(text: string): string {
  return text.replace(FENCE, '');
}

/** Each claim "`name` is exported by `entry`" the prose of `text` makes, with the line it is on. */
export function exportClaims(text: string): { name: string; entry: string; line: string }[] {
  const claims: { name: string; entry: string; line: string }[] = [];
  for (const line of prose(text).split('\n')) {
    // an inline import: `import { a, type B } from 'zkwire/x'`
    for (const m of line.matchAll(/import (?:type )?\{([^}]*)\} from '(zkwire[^']*)'/g)) {
      for (const part of (m[1] as string).split(',')) {
        const name = part.replace(/\btype\b/, '').split(' as ')[0]?.trim();
        if (name) claims.push({ name, entry: m[2] as string, line });
      }
    }
    // "`a`, `b` and `c` from `zkwire/x`" (also "in", "of")
    for (const m of line.matchAll(/((?:`[A-Za-z_$][\w$]*`(?:,? (?:and |or )?|\s))+)(?:from|in|of) `(zkwire(?:\/[a-z/]+)?)`/g)) {
      for (const n of (m[1] as string).matchAll(/`([A-Za-z_$][\w$]*)`/g)) claims.push({ name: n[1] as string, entry: m[2] as string, line });
    }
    // a table row whose first cell is an entry: every export name in the row is that entry's
    const row = /^\| `(zkwire(?:\/[a-z/]+)?)` \|(.*)$/.exec(line);
    if (row !== null) {
      for (const n of (row[2] as string).matchAll(/`([A-Za-z_$][\w$]*)`/g)) claims.push({ name: n[1] as string, entry: row[1] as string, line });
    }
  }
  // Only names that some entry exports are claims about exports (`options.transport`, `connect()` are not checked).
  return claims.filter((c) => allNames.has(c.name));
}

/** Backquoted repository paths in the prose of `text`. */
export function pathsIn(text: string): string[] {
  // docs/api/ is what `npm run docs` writes, not a file of the repository
  return [...prose(text).matchAll(/`((?:src|test|bench|docs|scripts)\/[\w./-]*[\w/])`/g)].map((m) => m[1] as string).filter((p) => !p.startsWith('docs/api/'));
}

/** `zkwire <command>` in prose and in the shell lines of code blocks. */
export function commandsIn(text: string): string[] {
  const found = [...prose(text).matchAll(/`zkwire ([a-z0-9][\w-]*)/g)].map((m) => m[1] as string);
  // In a shell block every line that starts with zkwire is a command; elsewhere only a `$ ` prompt line is (the rest
  // is output, e.g. a report's title "zkwire vs Apache Curator").
  for (const block of text.matchAll(/^```([a-z]*)[^\n]*\n([\s\S]*?)^```$/gm)) {
    const shell = /^(sh|bash|console|shell)$/.test(block[1] as string);
    for (const m of (block[2] as string).matchAll(/^(\$ )?(?:npx )?zkwire ([a-z0-9][\w-]*)/gm)) if (shell || m[1] !== undefined) found.push(m[2] as string);
  }
  return found;
}

describe('what the docs say', () => {
  it('finds the claims it checks (the parsers)', () => {
    const text = 'Take `LeaderLatch` and `CuratorCache` from `zkwire/recipes`; see `src/index.ts`; run `zkwire lsx /`.\n' +
      '| `zkwire/discovery` | `ServiceDiscovery`, `options.x` |\n```sh\n$ zkwire trace --listen 1\n```\n';
    expect(exportClaims(text).map((c) => `${c.name}@${c.entry}`)).toEqual(['LeaderLatch@zkwire/recipes', 'CuratorCache@zkwire/recipes', 'ServiceDiscovery@zkwire/discovery']);
    expect(pathsIn(text)).toEqual(['src/index.ts']);
    expect(commandsIn(text)).toEqual(['lsx', 'trace']);
  });

  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8');

    it(`${file}: each export it places in an entry is exported there`, () => {
      const wrong = exportClaims(text)
        .filter((c) => exportsOf.has(c.entry) && !exportsOf.get(c.entry)?.has(c.name))
        .map((c) => `${c.name} is not exported by ${c.entry}: ${c.line.trim().slice(0, 120)}`);
      const unknownEntries = exportClaims(text).filter((c) => !exportsOf.has(c.entry)).map((c) => `no entry ${c.entry}`);
      expect([...wrong, ...unknownEntries]).toEqual([]);
    });

    it(`${file}: each repository path it names exists`, () => {
      expect(pathsIn(text).filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
    });

    it(`${file}: each zkwire command it names is in the CLI's command table`, () => {
      const known = new Set(commands.map((c) => c.name));
      expect(commandsIn(text).filter((c) => !known.has(c))).toEqual([]);
    });
  }
});
