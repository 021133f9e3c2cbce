/** The shell's pure parts for zkCli.sh users: rewriting its spellings, "did you mean", usage in the shell, status. */

import { describe, expect, it } from 'vitest';
import { loadCommands } from '../../../src/cli/commands/index.js';
import { membersOfConfig, renderStatus, runStatus } from '../../../src/cli/shell/status.js';
import { editDistance, nearest } from '../../../src/cli/shell/suggest.js';
import { shellUsage, shellUsageLine } from '../../../src/cli/shell/usage.js';
import { isZkCliLine, rewriteZkCli } from '../../../src/cli/shell/zkcli.js';

const commands = await loadCommands();

describe('rewriteZkCli', () => {
  it.each([
    ['delete /a', [['rm', '/a']]],
    ['delete -v 3 /a', [['rm', '/a', '--version', '3']]],
    ['deleteall /a', [['rm', '-r', '/a']]],
    ['deleteall -b 100 /a', [['rm', '-r', '/a']]],
    ['rmr /a', [['rm', '-r', '/a']]],
    ['create -e /a', [['create', '/a', '--mode', 'ephemeral']]],
    ['create -s -e /a/n- data', [['create', '/a/n-', '--mode', 'ephemeral-sequential', '--', 'data']]],
    ['create -c /box', [['create', '/box', '--mode', 'container']]],
    ['create -t 5000 /t -1', [['create', '/t', '--mode', 'ttl', '--ttl', '5000', '--', '-1']]],
    ['create -s -t 5000 /t-', [['create', '/t-', '--mode', 'ttl-sequential', '--ttl', '5000']]],
    ['ls -R /a', [['lsr', '/a']]],
    ['ls -s /a', [['ls', '/a'], ['stat', '/a']]],
    ['get -s /a', [['get', '/a'], ['stat', '/a']]],
    ['set -v 2 /a -1', [['set', '/a', '--version', '2', '--', '-1']]],
    ['set -s /a x', [['set', '/a', '--', 'x']]],
    ['getAcl -s /a', [['getacl', '/a'], ['stat', '/a']]],
    ['setAcl /a world:anyone:r', [['setacl', '/a', 'world:anyone:r']]],
    ['addWatch /a', [['watch', '/a', '--recursive']]],
    ['addWatch -m persistent /a', [['watch', '/a']]],
  ])('%s', (line, lines) => {
    const words = line.split(' ');
    expect(isZkCliLine(words)).toBe(true);
    expect(rewriteZkCli(words)).toEqual({ lines });
  });

  it("leaves zkwire's own spellings alone", () => {
    for (const line of ['create /a --mode ephemeral', 'ls /a', 'get /a --format json', 'set /a x --version 1', 'rm -r /a', 'stat /a']) expect(isZkCliLine(line.split(' '))).toBe(false);
  });

  it.each([
    ['create -e -t 10 /a', '-t (a TTL node) cannot be combined with -e: TTL nodes are persistent'],
    ['create /a data world:anyone:r', 'create takes no ACL here: create /a, then setacl /a world:anyone:r'],
    ['ls -w /a', 'the shell watches with "watch PATH" (persistent, printed in the background) instead of -w'],
    ['delete -v', '-v needs a value'],
    ['delete -x /a', "unknown option -x (zkCli.sh's delete takes -v)"],
    ['deleteall', 'give PATH'],
    ['addWatch -m once /a', '-m must be persistent or persistentRecursive'],
  ])('%s is refused: %s', (line, error) => {
    expect(rewriteZkCli(line.split(' '))).toEqual({ error });
  });
});

describe('nearest', () => {
  const names = ['ls', 'lsr', 'get', 'getacl', 'getEphemerals', 'getAllChildrenNumber', 'delete', 'deleteall', 'quit', 'status', 'setquota'];
  it.each([
    ['lss', 'ls'],
    ['gte', 'get'],
    ['quti', 'quit'],
    ['deletall', 'deleteall'],
    ['getephemerals', 'getEphemerals'],
    ['getAllChildren', 'getAllChildrenNumber'],
    ['stauts', 'status'],
    ['setQuota', 'setquota'],
  ])('%s → %s', (typed, name) => {
    expect(nearest(typed, names)).toBe(name);
  });

  it('suggests nothing for a word that is nothing like a command', () => {
    expect(nearest('frobnicate', names)).toBeUndefined();
    expect(nearest('x', names)).toBeUndefined();
  });

  it('counts a swap of neighbours as one edit', () => {
    expect(editDistance('quti', 'quit')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });
});

describe('shellUsage', () => {
  it('drops "zkwire", the session options and the throwaway server (every command is checked in the shell itself)', () => {
    const usage = (name: string): string => shellUsage(commands.find((c) => c.name === name)!.usage);
    expect(shellUsageLine(commands.find((c) => c.name === 'rm')!.usage)).toBe('Usage: rm PATH [-r] [--version V] [--json]');
    expect(usage('reconfig').split('\n').slice(0, 3)).toEqual([
      'Usage: reconfig [--add SPEC]... [--remove ID[,ID...]]... [--from-config VERSION]',
      '       reconfig --members SPEC[,SPEC...] [--from-config VERSION]',
      '       [--json]',
    ]);
    expect(usage('4lw')).toContain("to every host of the shell's connect string (in order)");
    expect(usage('lock')).not.toMatch(/--server|throwaway|session-timeout sets/);
  });
});

describe('status', () => {
  it('reads the members of a dynamic configuration, a wildcard client address at the quorum host', () => {
    const config = ['server.1=10.0.0.1:2888:3888:participant;0.0.0.0:2181', 'server.2=zk2:2888:3888:observer;10.0.0.9:2182', 'server.3=[::1]:2888:3888;2183', 'version=100000000'].join('\n');
    expect(membersOfConfig(config)).toEqual([
      { host: '10.0.0.1', port: 2181 },
      { host: '10.0.0.9', port: 2182 },
      { host: '::1', port: 2183 },
    ]);
  });

  it('renders a row per member and a line for one that did not answer', () => {
    const text = renderStatus(
      [
        { server: 'a:1', mode: 'leader', zxid: '0x10', connections: 3, outstanding: 0, latency: '0/0.5/4', nodeCount: 12 },
        { server: 'b:2', error: 'connect ECONNREFUSED' },
      ],
      new Date('2026-11-27T09:30:05Z'),
      false,
    );
    expect(text.split('\n')).toEqual([
      'ensemble status at 09:30:05 UTC',
      expect.stringMatching(/^\| server \| mode +\| +zxid \| connections \|/),
      expect.stringMatching(/^\| -+ \| -+ \|/),
      expect.stringMatching(/^\| a:1 +\| leader +\| +0x10 \| +3 \| +0 \| +0\/0\.5\/4 \| +12 \|$/),
      expect.stringMatching(/^\| b:2 +\| DOWN +\| +– \|/),
      'b:2: connect ECONNREFUSED',
      '',
    ]);
  });

  it('redraws in place: back over the lines drawn, clear, draw; once only when not live', async () => {
    const written: string[] = [];
    const stop = new AbortController();
    let probes = 0;
    await runStatus({
      probe: () => {
        if (++probes === 3) stop.abort();
        return Promise.resolve([{ server: 'a:1', mode: 'standalone' }]);
      },
      write: (t) => written.push(t),
      signal: stop.signal,
      live: true,
      intervalMs: 1,
      now: () => new Date(0),
    });
    expect(written).toHaveLength(2);
    const lines = written[0]!.split('\n').length - 1;
    expect(written[1]!.startsWith(`\x1b[${lines}F\x1b[0J`)).toBe(true);
    const once: string[] = [];
    await runStatus({ probe: () => Promise.resolve([]), write: (t) => once.push(t), signal: new AbortController().signal, live: false });
    expect(once).toHaveLength(1);
  });
});
