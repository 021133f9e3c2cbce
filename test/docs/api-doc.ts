/**
 * docs/api.md read as data: one section per package entry (`## \`zkwire/x\``), one row per exported name and its kind.
 * Shared by the test that holds the build to the page and the one that holds the other docs to it.
 */

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface Section {
  /** The specifiers of the heading, e.g. ['zkwire', 'zkwire/node']. */
  readonly specifiers: readonly string[];
  /** Name → kind, as the section's rows list them. */
  readonly rows: Map<string, string>;
  /** The section whose names this one includes ("Includes every name of `x`."). */
  readonly includes: string | undefined;
}

/** The `## \`entry\`` sections of docs/api.md and their rows; a name listed twice in one section throws. */
export function parseApiDoc(text: string): Section[] {
  const sections: Section[] = [];
  let current: { specifiers: string[]; rows: Map<string, string>; includes: string | undefined } | undefined;
  for (const line of text.split('\n')) {
    const heading = /^## (`.+`)$/.exec(line);
    if (heading !== null) {
      current = { specifiers: [...(heading[1] as string).matchAll(/`([^`]+)`/g)].map((m) => m[1] as string), rows: new Map(), includes: undefined };
      sections.push(current);
      continue;
    }
    if (line.startsWith('## ')) {
      current = undefined;
      continue;
    }
    if (current === undefined) continue;
    const includes = /Includes every name of `([^`]+)`/.exec(line);
    if (includes !== null) current.includes = includes[1];
    const row = /^\| `([^`]+)` \| (\w+) \|/.exec(line);
    if (row !== null) {
      const [, name, kind] = row as unknown as [string, string, string];
      if (current.rows.has(name)) throw new Error(`docs/api.md: ${name} listed twice under ${current.specifiers.join(', ')}`);
      current.rows.set(name, kind);
    }
  }
  return sections;
}

/** The sections of this repository's docs/api.md, and each specifier's section. */
export function apiDoc(): { sections: Section[]; bySpecifier: Map<string, Section> } {
  const sections = parseApiDoc(readFileSync(join(ROOT, 'docs/api.md'), 'utf8'));
  return { sections, bySpecifier: new Map(sections.flatMap((s) => s.specifiers.map((spec) => [spec, s] as const))) };
}

/** Every name a section stands for (its rows and, through "Includes", another section's), with its kind. */
export function namesOf(section: Section, bySpecifier: ReadonlyMap<string, Section>): Map<string, string> {
  const included = section.includes === undefined ? new Map<string, string>() : namesOf(bySpecifier.get(section.includes) as Section, bySpecifier);
  return new Map([...included, ...section.rows]);
}
