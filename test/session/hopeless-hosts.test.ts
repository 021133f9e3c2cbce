/**
 * connect() against hosts where waiting mends nothing: a port nothing listens on, and a port that answers but is not
 * ZooKeeper (an HTTP server, as ZooKeeper's own admin port is). With the default reconnect policy connect() gives up
 * after two passes over such hosts (200-400 ms apart), naming what it met, instead of retrying until its deadline
 * (30 s by default: each test's own timeout, far below it, is what proves "at once"). A policy the caller gives
 * still decides.
 */

import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { retryForever } from '../../src/session/retry-policy.js';
import { errorOf } from '../client/helpers.js';
import { sharedServer } from '../harness/zookeeper.js';

/** A loopback port that was free a moment ago: bound, then released, so a connect to it is refused. */
async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let http: Server;
let httpPort: number;

beforeAll(async () => {
  http = createHttpServer((_req, res) => res.end('not ZooKeeper'));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  httpPort = (http.address() as { port: number }).port;
});

afterAll(async () => {
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
});

describe('connect() to hosts that cannot become a ZooKeeper session', () => {
  it('a refused port: CONNECTIONLOSS at once, with the reason', async () => {
    const port = await closedPort();
    const err = await errorOf(ZooKeeperClient.connect(`127.0.0.1:${port}`, { trackEnsemble: false }));
    expect(err.code).toBe('CONNECTIONLOSS');
    expect(err.message).toMatch(new RegExp(`cannot connect to 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`));
  }, 10_000);

  it('an HTTP server: PROTOCOL_ERROR naming it, not FRAME_TOO_LARGE after the deadline', async () => {
    const err = await errorOf(ZooKeeperClient.connect(`127.0.0.1:${httpPort}`, { trackEnsemble: false }));
    expect(err.code).toBe('PROTOCOL_ERROR');
    expect(err.message).toMatch(`the server at 127.0.0.1:${httpPort} answered with what looks like HTTP, not ZooKeeper`);
  }, 10_000);

  it('every host of the list hopeless, one refused and one HTTP: the last reason is given', async () => {
    const port = await closedPort();
    const err = await errorOf(ZooKeeperClient.connect(`127.0.0.1:${port},127.0.0.1:${httpPort}`, { trackEnsemble: false }));
    expect(['CONNECTIONLOSS', 'PROTOCOL_ERROR']).toContain(err.code);
    expect(err.message).toMatch(/4 connect attempt\(s\) over all 2 host\(s\) failed/); // two passes
  }, 10_000);

  it('one live server among hopeless ones: connect() reaches it', async () => {
    const port = await closedPort();
    const live = (await sharedServer()).connectString.split(',')[0] ?? '';
    await using zk = await ZooKeeperClient.connect(`127.0.0.1:${port},127.0.0.1:${httpPort},${live}`, { trackEnsemble: false });
    expect(await zk.exists('/')).not.toBeNull();
  });

  it('a reconnect policy the caller gives decides: retryForever waits for the deadline', async () => {
    const port = await closedPort();
    const err = await errorOf(ZooKeeperClient.connect(`127.0.0.1:${port}`, { trackEnsemble: false, reconnect: retryForever(20), connectTimeoutMs: 500 }));
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toMatch(/no session established within 500 ms; last failure: .*ECONNREFUSED/);
  }, 10_000);
});
