/**
 * `zkwire admin` and `zkwire 4lw`'s fallback to the admin server, against a real ZooKeeper whose admin HTTP server
 * is enabled on a free port and whose 4lw.commands.whitelist allows only srvr (ZooKeeper's own default).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/testing/local-server/free-port.js';
import { startZooKeeper, type ZkServer } from '../harness/zookeeper.js';
import { jsonLines, zkwire } from './cli-io.js';

let server: ZkServer;
let adminUrl: string;
beforeAll(async () => {
  const port = await freePort();
  adminUrl = `http://127.0.0.1:${port}`;
  server = await startZooKeeper({
    extraConfig: { 'admin.enableServer': 'true', 'admin.serverAddress': '127.0.0.1', 'admin.serverPort': String(port), '4lw.commands.whitelist': 'srvr' },
  });
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describe('zkwire admin', () => {
  it('runs a command by its long name and by its four-letter name', async () => {
    const r = await zkwire('admin', 'monitor', '--url', adminUrl);
    expect(r.code, r.err).toBe(0);
    const body = JSON.parse(r.out) as Record<string, unknown>;
    expect(body['command']).toBe('monitor');
    expect(body['server_state']).toBe('standalone');
    const json = await zkwire('admin', 'mntr', '--url', `${adminUrl}/commands/`, '--json');
    expect(json.code, json.err).toBe(0);
    const [line] = jsonLines(json.out) as { url: string; command: string; answer: Record<string, unknown> }[];
    expect(line?.url).toBe(`${adminUrl}/commands/mntr`);
    expect(line?.answer['znode_count']).toEqual(expect.any(Number));
  });

  it('reports an unknown command, an unreachable server and a missing address', async () => {
    const unknown = await zkwire('admin', 'no_such_command', '--url', adminUrl);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain(`${adminUrl}/commands/no_such_command: Unknown command: no_such_command`);
    const port = await freePort();
    const down = await zkwire('admin', 'ruok', '--url', `http://127.0.0.1:${port}`);
    expect(down.code).toBe(1);
    expect(down.err).toContain(`no admin server answered at http://127.0.0.1:${port}/commands/ruok (ECONNREFUSED)`);
    expect(down.err).toContain('admin.enableServer=true');
    const nowhere = await zkwire('admin', 'ruok');
    expect(nowhere.code).toBe(2);
    expect(nowhere.err).toContain('give --url URL or --server HOSTS');
  });
});

describe('zkwire 4lw with a word the server does not allow', () => {
  it('asks the admin server instead, and says so', async () => {
    const r = await zkwire('4lw', 'mntr', '--server', server.connectString, '--admin-url', adminUrl);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe(`zkwire 4lw: ${server.connectString}: mntr is not in 4lw.commands.whitelist; answered by the admin server at ${adminUrl}/commands/mntr\n`);
    expect((JSON.parse(r.out) as Record<string, unknown>)['server_state']).toBe('standalone');
    const json = await zkwire('4lw', 'cons', '--server', server.connectString, '--admin-url', adminUrl, '--json');
    expect(jsonLines(json.out)).toEqual([expect.objectContaining({ server: server.connectString, command: 'cons', via: 'admin', url: `${adminUrl}/commands/cons` })]);
  });

  it('fails with both reasons when the admin server does not answer either', async () => {
    const port = await freePort();
    const r = await zkwire('4lw', 'mntr', '--server', server.connectString, '--admin-url', `http://127.0.0.1:${port}`);
    expect(r.code).toBe(1);
    expect(r.err).toContain('mntr is not allowed by this server (add it to 4lw.commands.whitelist in zoo.cfg), and its admin server did not answer instead: no admin server answered');
    // A word the server allows is answered as before, with no admin server involved.
    expect((await zkwire('4lw', 'srvr', '--server', server.connectString, '--admin-url', `http://127.0.0.1:${port}`)).code).toBe(0);
  });
});
