/** The shell's pure parts: splitting a line into words, completing a line, and the history file. */

import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completeLine, splitPartialPath } from '../../../src/cli/shell/complete.js';
import { HISTORY_SIZE, historyFile, loadHistory, saveHistory } from '../../../src/cli/shell/history.js';
import { splitLine, wordAtEnd } from '../../../src/cli/shell/line.js';

describe('splitLine', () => {
  it.each([
    ['', []],
    ['   ', []],
    ['ls /', ['ls', '/']],
    ['  get   /a\t--json ', ['get', '/a', '--json']],
    [`set /app '{"v": 1}'`, ['set', '/app', '{"v": 1}']],
    ['set /app "a \\"quoted\\" \\\\ word"', ['set', '/app', 'a "quoted" \\ word']],
    ['set /app "keeps \\n as is"', ['set', '/app', 'keeps \\n as is']],
    ['set /a\\ b x\\\'y', ['set', '/a b', "x'y"]],
    ["create /n ''", ['create', '/n', '']],
    ['set /n ab"cd"\'ef\'', ['set', '/n', 'abcdef']],
  ])('%j', (line, words) => {
    expect(splitLine(line)).toEqual(words);
  });

  it.each([
    [`set /n 'open`, "unterminated ' quote"],
    ['set /n "open', 'unterminated " quote'],
    ['set /n \\', 'a backslash ends the line'],
  ])('%j cannot be split', (line, error) => {
    expect(splitLine(line)).toEqual({ error });
  });
});

describe('wordAtEnd', () => {
  it('gives the word being typed and how many come before it', () => {
    expect(wordAtEnd('')).toEqual({ word: '', before: 0, plain: true });
    expect(wordAtEnd('ge')).toEqual({ word: 'ge', before: 0, plain: true });
    expect(wordAtEnd('get /a/b')).toEqual({ word: '/a/b', before: 1, plain: true });
    expect(wordAtEnd('get ')).toEqual({ word: '', before: 1, plain: true });
    expect(wordAtEnd(`set /a 'x y`).plain).toBe(false);
    expect(wordAtEnd('set /a "x').plain).toBe(false);
  });
});

describe('completeLine', () => {
  const commands = [
    { name: 'get', options: ['--hex', '--raw', '--json'] },
    { name: 'getacl', options: ['--json'] },
    { name: 'rm', options: ['-r', '--recursive', '--version'] },
  ];
  const tree: Record<string, string[]> = { '/': ['app', 'apple', 'zookeeper'], '/app': ['job-1', 'job-2', 'lock'] };
  const asked: string[] = [];
  const children = (path: string): Promise<readonly string[]> => {
    asked.push(path);
    return Promise.resolve(tree[path] ?? []);
  };

  it('completes command names in the first word', async () => {
    expect(await completeLine('ge', commands, children)).toEqual([['get', 'getacl'], 'ge']);
    expect(await completeLine('r', commands, children)).toEqual([['rm'], 'r']);
    expect(await completeLine('x', commands, children)).toEqual([[], 'x']);
  });

  it("completes the command's options", async () => {
    expect(await completeLine('get /a --h', commands, children)).toEqual([['--hex'], '--h']);
    expect(await completeLine('rm /a -', commands, children)).toEqual([['--recursive', '--version', '-r'], '-']);
    expect(await completeLine('nosuch /a --', commands, children)).toEqual([[], '--']);
  });

  it("completes node paths from the children of the partial path's parent", async () => {
    asked.length = 0;
    expect(await completeLine('get /ap', commands, children)).toEqual([['/app', '/apple'], '/ap']);
    expect(await completeLine('get /app/j', commands, children)).toEqual([['/app/job-1', '/app/job-2'], '/app/j']);
    expect(await completeLine('rm -r /app/', commands, children)).toEqual([['/app/job-1', '/app/job-2', '/app/lock'], '/app/']);
    expect(await completeLine('get /nosuch/x', commands, children)).toEqual([[], '/nosuch/x']);
    expect(asked).toEqual(['/', '/app', '/app', '/nosuch']);
  });

  it('adds "/" to a completed node that has children, asking about each candidate', async () => {
    const hasChildren = (path: string): Promise<boolean> => Promise.resolve(path === '/app');
    expect(await completeLine('get /ap', commands, children, hasChildren)).toEqual([['/app/', '/apple'], '/ap']);
    expect(await completeLine('get /app/j', commands, children, hasChildren)).toEqual([['/app/job-1', '/app/job-2'], '/app/j']);
  });

  it('leaves quoted words and other arguments alone', async () => {
    expect(await completeLine(`set /app 'x`, commands, children)).toEqual([[], "'x"]);
    expect(await completeLine('set /app da', commands, children)).toEqual([[], 'da']);
  });

  it('splits a partial path into parent and prefix', () => {
    expect(splitPartialPath('/')).toEqual({ parent: '/', prefix: '' });
    expect(splitPartialPath('/ap')).toEqual({ parent: '/', prefix: 'ap' });
    expect(splitPartialPath('/a/b/')).toEqual({ parent: '/a/b', prefix: '' });
    expect(splitPartialPath('/a/b/c')).toEqual({ parent: '/a/b', prefix: 'c' });
  });
});

describe('history file', () => {
  it('is ZKWIRE_HISTORY when set, none when it is empty, else ~/.zkwire_history', () => {
    expect(historyFile({ ZKWIRE_HISTORY: '/x/h' }, () => '/home/u')).toBe('/x/h');
    expect(historyFile({ ZKWIRE_HISTORY: '' }, () => '/home/u')).toBeUndefined();
    expect(historyFile({}, () => '/home/u')).toBe(join('/home/u', '.zkwire_history'));
  });

  it('round-trips oldest first on disk, newest first in memory, bounded, owner-only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zkw-history-'));
    try {
      const file = join(dir, 'sub', 'history');
      expect(loadHistory(file)).toEqual([]);
      expect(saveHistory(file, ['ls /b', 'ls /a'])).toBeUndefined();
      expect(readFileSync(file, 'utf8')).toBe('ls /a\nls /b\n');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(loadHistory(file)).toEqual(['ls /b', 'ls /a']);
      const many = Array.from({ length: HISTORY_SIZE + 10 }, (_, i) => `get /n${i}`);
      writeFileSync(file, `${many.join('\n')}\n\n`);
      const loaded = loadHistory(file);
      expect(loaded).toHaveLength(HISTORY_SIZE);
      expect(loaded[0]).toBe(`get /n${HISTORY_SIZE + 9}`);
      expect(saveHistory(undefined, ['x'])).toBeUndefined();
      expect(saveHistory(join(file, 'not-a-dir'), ['x'])).toMatch(/ENOTDIR|EEXIST/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
