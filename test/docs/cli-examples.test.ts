/**
 * The `console` examples of docs/cli.md's Subtrees section, run as written against a fresh server: each `$ zkwire`
 * line (with `--server` added, and `app.json` placed in a temporary directory), its standard output compared with
 * the lines shown under it. A shown `…` line means output not shown: then only the exit status (0) is checked.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startZooKeeper, type ZkServer } from '../harness/zookeeper.js';
import { zkwire } from '../tools/cli-io.js';

interface Step {
  readonly argv: string[];
  readonly expected: string[];
}

/** A command line's words: single-quoted parts kept whole (the examples quote nothing else). */
function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

/** The `$ zkwire` steps of the console blocks between `start` and the next `## ` heading. */
function consoleSteps(markdown: string, start: string): Step[] {
  const from = markdown.indexOf(start);
  if (from < 0) throw new Error(`no section ${start}`);
  const end = markdown.indexOf('\n## ', from + start.length);
  const section = markdown.slice(from, end < 0 ? undefined : end);
  const steps: { argv: string[]; expected: string[] }[] = [];
  for (const block of section.matchAll(/^```console\n([\s\S]*?)^```$/gm)) {
    for (const line of block[1]!.split('\n')) {
      if (line.startsWith('$ zkwire ')) steps.push({ argv: words(line.slice('$ zkwire '.length)), expected: [] });
      else if (line !== '') steps.at(-1)?.expected.push(line);
    }
  }
  return steps;
}

let server: ZkServer;
let dir: string;
beforeAll(async () => {
  server = await startZooKeeper();
  dir = await mkdtemp(join(tmpdir(), 'zkwire-cli-doc-'));
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('docs/cli.md: the Subtrees examples', () => {
  it('finds the steps and splits words as a shell would for these lines', () => {
    expect(words(`create /a '{"x": 1}' --name 'fl*'`)).toEqual(['create', '/a', '{"x": 1}', '--name', 'fl*']);
    expect(consoleSteps('## Subtrees\n```console\n$ zkwire ls /\nzookeeper\n```\n## Next\n```console\n$ zkwire x\n```\n', '## Subtrees')).toEqual([{ argv: ['ls', '/'], expected: ['zookeeper'] }]);
  });

  it('prints what the docs show, in order', async () => {
    const steps = consoleSteps(readFileSync(join(process.cwd(), 'docs/cli.md'), 'utf8'), '## Subtrees');
    expect(steps.length).toBeGreaterThan(10);
    for (const step of steps) {
      const argv = step.argv.map((a) => (a === 'app.json' ? join(dir, 'app.json') : a));
      const r = await zkwire(...argv, '--server', server.connectString);
      const where = `zkwire ${step.argv.join(' ')}`;
      expect(r.code, `${where}: ${r.err}`).toBe(0);
      if (step.expected.length === 1 && step.expected[0] === '…') continue;
      expect(r.out.split('\n').filter((l) => l !== ''), where).toEqual(step.expected);
    }
  });
});
