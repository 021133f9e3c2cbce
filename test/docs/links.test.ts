/**
 * Every relative link in README.md, CHANGELOG.md and docs/ leads somewhere: the file exists and, for `#anchor`
 * links into Markdown, a heading of the target has that anchor (GitHub's rule: lower case, punctuation dropped,
 * spaces to hyphens, a repeated heading numbered). Docs move and headings get renamed; a reader must not meet a
 * dead link, and this is where a rename that forgot its links shows.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const files = ['README.md', 'CHANGELOG.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** Markdown without its fenced code blocks (a `#` or a `[x](y)` in code is not a heading or a link). */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** GitHub's heading anchor. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of prose(readFileSync(file, 'utf8')).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1] as string);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of readFileSync(file, 'utf8').matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(m[1] as string);
  return anchors;
}

describe('links in the docs', () => {
  it('turns headings into anchors as GitHub does', () => {
    expect(slug('How close to the floor? `npm run bench:lock` and `npm run bench:handoff`')).toBe('how-close-to-the-floor-npm-run-benchlock-and-npm-run-benchhandoff');
    expect(slug('`zkwire bench raw` / `npm run bench:raw`: the client against the floor')).toBe('zkwire-bench-raw--npm-run-benchraw-the-client-against-the-floor');
  });

  for (const file of files) {
    it(`${file}: every relative link and anchor exists`, () => {
      const path = join(root, file);
      const dead: string[] = [];
      for (const m of prose(readFileSync(path, 'utf8')).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = m[1] as string;
        if (/^[a-z]+:/i.test(target)) continue; // http:, https:, mailto:
        const [where, anchor] = target.split('#', 2) as [string, string | undefined];
        const targetFile = where === '' ? path : resolve(dirname(path), decodeURIComponent(where));
        if (!existsSync(targetFile)) {
          dead.push(`${target} (no such file)`);
          continue;
        }
        if (anchor !== undefined && targetFile.endsWith('.md') && !anchorsOf(targetFile).has(anchor)) dead.push(`${target} (no such heading)`);
      }
      expect(dead).toEqual([]);
    });
  }
});
