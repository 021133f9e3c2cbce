/** `zkwire get` showing data as it is, against a real server: detection by default and `--format`. */

import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { sharedServer } from '../harness/zookeeper.js';
import { zkwire } from './cli-io.js';

let server: string;
let zk: ZooKeeperClient;
let base: string;

beforeAll(async () => {
  server = (await sharedServer()).connectString;
  zk = await ZooKeeperClient.connect(server);
  base = `/get-format-${randomUUID()}`;
  await zk.create(base);
});

afterAll(async () => {
  await zk?.deleteRecursive(base).catch(() => {});
  await zk?.close();
});

describe('zkwire get: the data as it is', () => {
  it('pretty-prints JSON, inflates gzip with a note on stderr, and prints text as text', async () => {
    await zk.create(`${base}/json`, '{"max":10,"hosts":["a","b"]}');
    expect(await zkwire('get', `${base}/json`, '--server', server)).toEqual({ code: 0, out: '{\n  "max": 10,\n  "hosts": [\n    "a",\n    "b"\n  ]\n}\n', err: '' });

    const config = JSON.stringify({ feature: 'x'.repeat(200) });
    const zipped = new Uint8Array(gzipSync(config));
    await zk.create(`${base}/gz`, zipped);
    const gz = await zkwire('get', `${base}/gz`, '--server', server);
    expect(gz.code).toBe(0);
    expect(JSON.parse(gz.out)).toEqual(JSON.parse(config));
    expect(gz.err).toBe(`zkwire get: ${base}/gz: gzip, ${zipped.length} bytes → ${config.length} bytes\n`);

    await zk.create(`${base}/text`, 'max=10');
    expect(await zkwire('get', `${base}/text`, '--server', server)).toEqual({ code: 0, out: 'max=10\n', err: '' });
  });

  it('--format forces a view; data that is not what it asks for is exit 1 with the reason', async () => {
    await zk.create(`${base}/f`, '{"a":1}');
    expect((await zkwire('get', `${base}/f`, '--format', 'text', '--server', server)).out).toBe('{"a":1}\n');
    expect((await zkwire('get', `${base}/f`, '--format', 'base64', '--server', server)).out).toBe(`${Buffer.from('{"a":1}').toString('base64')}\n`);
    expect((await zkwire('get', `${base}/f`, '--format=hex', '--server', server)).out).toBe(`${'00000000  7b 22 61 22 3a 31 7d'.padEnd(60)}|{"a":1}|\n`);
    await zk.create(`${base}/plain`, 'hello');
    expect(await zkwire('get', `${base}/plain`, '--format', 'json', '--server', server)).toEqual({ code: 1, out: '', err: `zkwire get: ${base}/plain: the data is not a JSON object or array\n` });
  });

  it('--json takes --format base64 as the encoding; a bad or doubled format is a usage error', async () => {
    await zk.create(`${base}/j`, new Uint8Array([0xff, 0x00]));
    const json = JSON.parse((await zkwire('get', `${base}/j`, '--format', 'base64', '--json', '--server', server)).out) as Record<string, unknown>;
    expect(json).toMatchObject({ path: `${base}/j`, data: '/wA=', encoding: 'base64' });
    const bad = await zkwire('get', `${base}/j`, '--format', 'yaml', '--server', server);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--format must be one of auto, json, text, hex, base64/);
    expect((await zkwire('get', `${base}/j`, '--format', 'hex', '--hex', '--server', server)).code).toBe(2);
  });
});
