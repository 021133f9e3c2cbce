/**
 * TestingServer: stop and restart keep the port and the data, close removes the directory, pause freezes it, and
 * a machine without Java or ZooKeeper gets the typed error naming what to install.
 */

import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { connect } from '../../src/node.js';
import { TestingServer } from '../../src/testing/server.js';
import { probeServerMode } from '../../src/testing/local-server/four-letter-client.js';
import { ZooKeeperNotInstalledError } from '../../src/testing/local-server/install.js';
import { harnessCleanup } from '../harness/exit-cleanup.js';
import { realClock } from '../harness/real-timers.js';
import { alive } from '../tools/cli-process.js';
import { eventually } from '../recipes/helpers.js';

const kit = { clock: realClock, cleanup: harnessCleanup() };

describe('TestingServer', () => {
  it('restarts on the same port with the same data after stop() and kill(); close() leaves no JVM and no directory', async () => {
    const server = await TestingServer.start(kit);
    const { port, directory } = server;
    const pid = server.pid!;
    expect(server.connectString).toBe(`127.0.0.1:${port}`);
    await using zk = await connect(server.connectString, { sessionTimeoutMs: 10_000 });
    const path = `/kept-${randomUUID()}`;
    await zk.create(path, 'v1');
    // the directory the txnlog/snapshot tools take: zoo.cfg's dataDir, where the server writes version-2/ (issue #29, 4)
    expect(server.dataDirectory).toBe(`${directory}/data`);
    expect(fs.readFileSync(`${directory}/zoo.cfg`, 'utf8')).toContain(`dataDir=${server.dataDirectory}`);
    expect(fs.readdirSync(`${server.dataDirectory}/version-2`).some((f) => f.startsWith('log.'))).toBe(true);

    await server.stop();
    expect(server.running).toBe(false);
    expect(alive(pid)).toBe(false);
    expect(await probeServerMode('127.0.0.1', port, 1000)).toBeNull();
    await server.restart();
    expect(server.port).toBe(port);
    await zk.waitConnected();
    expect(new TextDecoder().decode((await zk.getData(path)).data)).toBe('v1');

    await server.kill();
    await server.restart();
    await zk.waitConnected();
    expect(new TextDecoder().decode((await zk.getData(path)).data)).toBe('v1');

    const lastPid = server.pid!;
    await server.close();
    expect(alive(lastPid)).toBe(false);
    expect(fs.existsSync(directory)).toBe(false);
    await server.close(); // twice is fine
    await expect(server.restart()).rejects.toThrow(/stopped and its data removed/);
  });

  it('await using closes it', async () => {
    let directory = '';
    let pid = 0;
    {
      await using server = await TestingServer.start(kit);
      directory = server.directory;
      pid = server.pid!;
      expect(await server.fourLetter('ruok')).toBe('imok');
    }
    expect(alive(pid)).toBe(false);
    expect(fs.existsSync(directory)).toBe(false);
  });

  it('pause() freezes the server with its port open, and resume() lets it serve again', async () => {
    await using server = await TestingServer.start(kit);
    server.pause();
    // SIGSTOP takes effect as each of the JVM's threads is next scheduled: probe once the kernel says it is stopped
    // (a fresh-clone run once got an answer from a server paused a moment before).
    await eventually(() => stoppedByKernel(server.pid), 5_000, 'the JVM stopped');
    expect(await probeServerMode(server.host, server.port, 500)).toBeNull();
    server.resume();
    expect(await probeServerMode(server.host, server.port, 5000)).toBe('standalone');
  });
});

describe('TestingServer without Java or ZooKeeper', () => {
  it('rejects with ZooKeeperNotInstalledError (missing java) when there is no Java, naming what to install', async () => {
    const error = await TestingServer.start({ ...kit, env: { PATH: '/nonexistent' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZooKeeperNotInstalledError);
    expect(error).toMatchObject({ code: 'ZOOKEEPER_NOT_INSTALLED', missing: 'java', name: 'ZooKeeperNotInstalledError' });
    expect((error as Error).message).toContain('java: not found');
    expect((error as Error).message).toMatch(/^zkwire\/testing starts ZooKeeper servers/);
    expect((error as Error).message).toMatch(/apt-get install .*default-jre-headless/);
    expect((error as Error).message).toContain('zooKeeperHome, javaHome');
    expect((error as Error).message).not.toContain('scripts/setup.sh'); // that is this repository's, not the user's
  });

  it('rejects with missing zookeeper when Java is there but the given ZooKeeper home holds no jars, and falls back to nothing', async () => {
    const error = await TestingServer.start({ ...kit, zooKeeperHome: '/nonexistent/zookeeper' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZooKeeperNotInstalledError);
    expect(error).toMatchObject({ missing: 'zookeeper' });
    expect((error as Error).message).toContain('ZOOKEEPER_HOME=/nonexistent/zookeeper');
    expect((error as Error).message).toMatch(/apt-get install .*libzookeeper-java/);
  });

  it('rejects with missing java when the given Java home has no bin/java', async () => {
    const error = await TestingServer.start({ ...kit, javaHome: '/nonexistent/jdk' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ZOOKEEPER_NOT_INSTALLED', missing: 'java' });
  });
});

/** The process state Linux reports for `pid` is T (stopped by a signal). */
function stoppedByKernel(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).startsWith('T');
}
