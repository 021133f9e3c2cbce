/**
 * The ```ts blocks of README.md and docs/*.md, for the examples test and for the tests that run one example as a
 * program of its own (test/docs/service-expiry.test.ts).
 */

import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../runtimes/run-runtime.js';

export interface Example {
  /** `docs/client.md:20`: where the block opens. */
  readonly where: string;
  readonly source: string;
  readonly runs: boolean;
  /** File name in the scratch project. */
  readonly file: string;
}

/**
 * Whether test/package/package.test.ts runs this example (docs/testing.md's node:test files, against the installed
 * tarball, with their pass and fail counts checked), so the examples test need not run it a second time.
 */
export function runsInPackageTest(e: Example): boolean {
  return e.where.startsWith('docs/testing.md:') && e.source.includes("from 'node:test'");
}

/** The server address examples are written for; tests replace it with their own server's. */
export const DEFAULT_SERVER = '127.0.0.1:2181';

export function markdownFiles(): string[] {
  const docs = fs
    .readdirSync(path.join(REPO_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs.sort()];
}

/** Fenced ```ts blocks, indented ones (inside a list) included; the indentation is removed. */
export function extract(file: string): Example[] {
  const lines = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8').split('\n');
  const out: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```ts( run)?\s*$/.exec(lines[i]!);
    if (open === null) continue;
    const indent = open[1]!;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && lines[j]!.trim() !== '```'; j++) body.push(lines[j]!.startsWith(indent) ? lines[j]!.slice(indent.length) : lines[j]!);
    if (j === lines.length) throw new Error(`${file}:${i + 1}: unclosed code block`);
    out.push({
      where: `${file}:${i + 1}`,
      source: body.join('\n') + '\n',
      runs: open[2] !== undefined,
      file: `${file.replace(/[/.]/g, '_')}_${i + 1}.mts`,
    });
    i = j;
  }
  return out;
}

