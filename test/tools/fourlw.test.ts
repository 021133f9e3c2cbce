/** `zkwire 4lw` and `zkwire srvr` against a real server: text answers, the --json shapes, failures and exit codes. */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fourLetterJson, parseKeyValues } from '../../src/tools/four-letter-json.js';
import { freePort } from '../../src/testing/local-server/free-port.js';
import { startZooKeeper, type ZkServer } from '../harness/zookeeper.js';
import { jsonLines, zkwire } from './cli-io.js';

let server: ZkServer;
let strict: ZkServer;
beforeAll(async () => {
  [server, strict] = await Promise.all([startZooKeeper(), startZooKeeper({ extraConfig: { '4lw.commands.whitelist': 'srvr' } })]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), strict?.stop()]);
});

interface Answer {
  server: string;
  command: string;
  answer?: Record<string, unknown>;
  error?: string;
}

async function json(cmd: string): Promise<Answer> {
  const r = await zkwire('4lw', cmd, '--server', server.connectString, '--json');
  expect(r.code, r.err).toBe(0);
  const lines = jsonLines(r.out) as Answer[];
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ server: server.connectString, command: cmd });
  return lines[0]!;
}

describe('zkwire 4lw', () => {
  it('prints the raw answer as text', async () => {
    expect(await zkwire('4lw', 'ruok', '--server', server.connectString)).toEqual({ code: 0, out: 'imok\n', err: '' });
    const srvr = await zkwire('4lw', 'srvr', '--server', server.connectString);
    expect(srvr.out).toMatch(/^Zookeeper version: 3\.\d+\.\d+/);
    expect(srvr.out).toMatch(/^Mode: standalone$/m);
  });

  it('--json gives srvr and stat as fields with numbers', async () => {
    const srvr = (await json('srvr')).answer!;
    expect(srvr['mode']).toBe('standalone');
    expect(srvr['version']).toMatch(/^3\.\d+\.\d+/);
    expect(typeof srvr['nodeCount']).toBe('number');
    expect(typeof srvr['latencyMax']).toBe('number');
    expect((srvr['fields'] as Record<string, string>)['Mode']).toBe('standalone');
    const stat = (await json('stat')).answer!;
    // stat lists the connected clients, our own 4lw connection among them.
    expect(Array.isArray(stat['clients'])).toBe(true);
    expect((stat['clients'] as { address: string }[]).some((c) => c.address.startsWith('127.0.0.1:'))).toBe(true);
  });

  it('--json gives mntr as numbers, cons as connections, wchs as counts, conf and envi as key/values', async () => {
    const mntr = (await json('mntr')).answer!;
    expect(mntr['zk_server_state']).toBe('standalone');
    expect(typeof mntr['zk_znode_count']).toBe('number');
    const cons = (await json('cons')).answer!;
    expect((cons['connections'] as unknown[]).length).toBeGreaterThanOrEqual(1);
    expect(cons['connections']).toEqual(expect.arrayContaining([expect.objectContaining({ address: expect.stringMatching(/^127\.0\.0\.1:\d+$/) })]));
    const wchs = (await json('wchs')).answer!;
    expect(wchs).toEqual({ connections: expect.any(Number), paths: expect.any(Number), totalWatches: expect.any(Number) });
    const conf = (await json('conf')).answer!;
    expect(conf['clientPort']).toBe(String(server.port));
    expect(conf['tickTime']).toBe('2000');
    const envi = (await json('envi')).answer!;
    expect(envi['java.version']).toMatch(/^\d+/);
    expect((await json('ruok')).answer).toEqual({ ok: true, text: 'imok' });
    expect((await json('isro')).answer).toEqual({ readOnly: false, text: 'rw' });
    expect((await json('dirs')).answer).toEqual({ text: expect.stringMatching(/datadir_size/) });
  });

  it('asks every host of the connect string, and fails (exit 1) for the one that does not answer', async () => {
    const dead = `127.0.0.1:${await freePort()}`;
    const r = await zkwire('4lw', 'ruok', '--server', `${server.connectString},${dead}/chroot`, '--json');
    expect(r.code).toBe(1);
    const [ok, failed] = jsonLines(r.out) as Answer[];
    expect(ok).toMatchObject({ server: server.connectString, answer: { ok: true } });
    expect(failed).toMatchObject({ server: dead, command: 'ruok', error: expect.stringMatching(/ECONNREFUSED/) });
    const text = await zkwire('4lw', 'ruok', '--server', `${server.connectString},${dead}`);
    expect(text.out).toBe(`== ${server.connectString} ==\nimok\n`);
    expect(text.err).toMatch(new RegExp(`${dead}: .*ECONNREFUSED`));
  });

  it('a word the server does not allow is a failure (exit 1), as text and as JSON', async () => {
    // Its admin server is asked instead (test/tools/admin.test.ts); here nothing listens where it is looked for.
    const noAdmin = `http://127.0.0.1:${await freePort()}`;
    const text = await zkwire('4lw', 'mntr', '--server', strict.connectString, '--admin-url', noAdmin);
    expect(text.code).toBe(1);
    expect(text.out).toBe('');
    expect(text.err).toContain(`${strict.connectString}: mntr is not allowed`);
    expect(text.err).toContain('4lw.commands.whitelist');
    const json = await zkwire('4lw', 'mntr', '--server', strict.connectString, '--admin-url', noAdmin, '--json');
    expect(json.code).toBe(1);
    expect(jsonLines(json.out)).toEqual([
      { server: strict.connectString, command: 'mntr', error: expect.stringContaining('not allowed'), answer: expect.objectContaining({ error: 'NOT_WHITELISTED' }) },
    ]);
    // the allowed word still works there
    expect((await zkwire('4lw', 'srvr', '--server', strict.connectString)).code).toBe(0);
  });

  it('refuses unknown words and bad options with exit 2', async () => {
    expect((await zkwire('4lw', 'help', '--server', server.connectString)).code).toBe(2);
    expect((await zkwire('4lw', '--server', server.connectString)).code).toBe(2);
    expect((await zkwire('4lw', 'ruok', '--timeout', 'soon', '--server', server.connectString)).code).toBe(2);
    expect((await zkwire('4lw', '--help')).out).toMatch(/^Usage: zkwire 4lw/);
  });

  it('srvr is shorthand for 4lw srvr', async () => {
    const r = await zkwire('srvr', '--server', server.connectString, '--json');
    expect(r.code).toBe(0);
    expect(jsonLines(r.out)).toEqual([expect.objectContaining({ command: 'srvr', answer: expect.objectContaining({ mode: 'standalone' }) })]);
  });

  it('with no --server, starts a throwaway server, says so, and removes it afterwards', async () => {
    const r = await zkwire('srvr');
    expect(r.code).toBe(0);
    const said = /^no --server given: started a throwaway ZooKeeper (3\.\d+\.\d+) at 127\.0\.0\.1:(\d+)$/m.exec(r.err);
    expect(said, r.err).not.toBeNull();
    expect(r.out).toContain(`Zookeeper version: ${said![1]}`);
    // Gone: nothing listens there any more.
    const r2 = await zkwire('4lw', 'ruok', '--server', `127.0.0.1:${said![2]}`, '--timeout', '2000');
    expect(r2.code).toBe(1);
  });
});

describe('four-letter JSON shaping', () => {
  it('key=value lines keep everything after the first =', () => {
    expect(parseKeyValues('Environment:\nzookeeper.version=3.8.0-x, built on 2024\nweird=a=b\n')).toEqual({
      'zookeeper.version': '3.8.0-x, built on 2024',
      weird: 'a=b',
    });
  });

  it('says when the server does not allow the word', () => {
    const text = 'mntr is not executed because it is not in the whitelist.\n';
    expect(fourLetterJson('mntr', text)).toEqual({ error: 'NOT_WHITELISTED', text: text.trim() });
  });
});
