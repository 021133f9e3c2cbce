/**
 * Connect-time limits past the runtime timer's 2^31−1 ms: connectTimeoutMs Infinity means no deadline, and a
 * requested session timeout of 2^32 ms is sent as the most the wire's int32 holds and negotiated down by the
 * server. Nonsense (NaN, negative, not a number) is BAD_ARGUMENT before anything is sent.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { ZooKeeperClient, type ClientOptions } from '../../src/node.js';
import { sharedServer } from '../harness/zookeeper.js';

let connectString: string;
beforeAll(async () => {
  connectString = (await sharedServer()).connectString;
});

describe('long connect and session timeouts', () => {
  it('connects with connectTimeoutMs: Infinity', async () => {
    await using client = await ZooKeeperClient.connect(connectString, { connectTimeoutMs: Infinity });
    expect(client.state).toBe('connected');
    await client.exists('/');
  });

  it.each([2 ** 32, Infinity])('connects with sessionTimeoutMs: %s; the server negotiates it down', async (sessionTimeoutMs) => {
    await using client = await ZooKeeperClient.connect(connectString, { sessionTimeoutMs });
    expect(client.state).toBe('connected');
    expect(client.negotiatedTimeoutMs).toBeGreaterThan(0);
    expect(client.negotiatedTimeoutMs).toBeLessThan(2 ** 31);
    await client.exists('/');
  });

  it.each<[string, ClientOptions]>([
    ['connectTimeoutMs NaN', { connectTimeoutMs: Number.NaN }],
    ['connectTimeoutMs -1', { connectTimeoutMs: -1 }],
    ['connectTimeoutMs "5"', { connectTimeoutMs: '5' as unknown as number }],
    ['sessionTimeoutMs NaN', { sessionTimeoutMs: Number.NaN }],
    ['sessionTimeoutMs 0', { sessionTimeoutMs: 0 }],
    ['sessionTimeoutMs -5', { sessionTimeoutMs: -5 }],
    ['closeTimeoutMs -1', { closeTimeoutMs: -1 }],
    ['signal not an AbortSignal', { signal: {} as unknown as AbortSignal }],
    ['maxDataSize NaN', { maxDataSize: Number.NaN }],
    ['maxFrameSize -1', { maxFrameSize: -1 }],
  ])('refuses %s with BAD_ARGUMENT', async (_name, options) => {
    await expect(ZooKeeperClient.connect(connectString, options)).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
  });
});
