import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { fourLetterWord, parseServerMode } from '../../src/testing/local-server/four-letter-client.js';
import { findZooKeeperInstall, missingInstallMessage } from '../../src/testing/local-server/install.js';
import { startZooKeeper, type ZkServer } from './zookeeper.js';

describe('standalone server', () => {
  let server: ZkServer;
  beforeAll(async () => {
    server = await startZooKeeper();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('listens on loopback and answers ruok and srvr', async () => {
    expect(server.host).toBe('127.0.0.1');
    expect(server.connectString).toBe(`127.0.0.1:${server.port}`);
    expect(await server.fourLetter('ruok')).toBe('imok');
    const srvr = await server.fourLetter('srvr');
    expect(srvr).toMatch(/^Zookeeper version: 3\./);
    expect(parseServerMode(srvr)).toBe('standalone');
  });

  it('runs with the golden captures configuration', async () => {
    const conf = await server.fourLetter('conf');
    expect(conf).toMatch(/^clientPort=\d+$/m);
    expect(conf).toContain(`clientPort=${server.port}`);
    expect(conf).toMatch(/^tickTime=2000$/m);
    expect(conf).toMatch(/^minSessionTimeout=4000$/m);
    expect(conf).toMatch(/^maxSessionTimeout=40000$/m);
  });

  it('comes back on the same port after kill and restart', async () => {
    await server.kill();
    await expect(fourLetterWord(server.host, server.port, 'ruok', 2000)).rejects.toThrow(/ECONNREFUSED/);
    await server.restart();
    expect(parseServerMode(await server.fourLetter('srvr'))).toBe('standalone');
  });
});

describe('startZooKeeper options and stop', () => {
  it('applies tickTime and extraConfig, and stop removes the data dir', async () => {
    const server = await startZooKeeper({ tickTime: 500, extraConfig: { maxSessionTimeout: '7000' } });
    const conf = await server.fourLetter('conf');
    expect(conf).toMatch(/^tickTime=500$/m);
    expect(conf).toMatch(/^minSessionTimeout=1000$/m);
    expect(conf).toMatch(/^maxSessionTimeout=7000$/m);
    const dataDir = /^dataDir=(.+)$/m.exec(conf)?.[1];
    expect(dataDir).toBeDefined();
    expect(fs.existsSync(path.dirname(dataDir ?? ''))).toBe(true);
    await server.stop();
    expect(fs.existsSync(path.dirname(dataDir ?? ''))).toBe(false);
    await expect(fourLetterWord(server.host, server.port, 'ruok', 2000)).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('startZooKeeper failures', () => {
  it('fails fast with the server log in the error, and leaves no directory behind', async () => {
    const error: unknown = await startZooKeeper({ extraConfig: { tickTime: 'soon' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toMatch(/exited before it started serving/);
    expect(message).toMatch(/--- last lines of .*server\.log ---/);
    expect(message).toMatch(/NumberFormatException|soon/);
    const dir = /last lines of (.*)\/server\.log/.exec(message)?.[1];
    expect(dir).toBeDefined();
    expect(fs.existsSync(dir ?? '')).toBe(false);
  });
});

describe('install discovery', () => {
  it('finds Java and the ZooKeeper jars here (the suite could not run otherwise)', () => {
    const install = findZooKeeperInstall();
    expect(install).not.toBeNull();
    expect(install?.classpath).toMatch(/zookeeper/);
  });

  it('finds nothing when ZOOKEEPER_HOME and ZOOKEEPER_JAR_DIR point nowhere, and says which jar it looked for', () => {
    const env = { ...process.env, ZOOKEEPER_HOME: '/nonexistent', ZOOKEEPER_JAR_DIR: '/nonexistent/java' };
    expect(findZooKeeperInstall(env)).toBeNull();
    expect(missingInstallMessage(env)).toContain('no /nonexistent/java/zookeeper.jar');
  });

  it('tells how to install when nothing is found', () => {
    const env = { PATH: '/nonexistent', ZOOKEEPER_HOME: '/nonexistent' };
    expect(missingInstallMessage(env)).toContain('sudo bash scripts/setup.sh');
    expect(missingInstallMessage(env)).toMatch(/apt-get install .*libzookeeper-java/);
  });
});
