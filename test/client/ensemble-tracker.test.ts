/**
 * The ensemble tracker against a scripted server (in-memory transport, manual clock): what it sends, and that a
 * server with no /zookeeper/config (3.4) ends it after one read, with no watch asked for and no state change.
 */

import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/client.js';
import { retryForever } from '../../src/session/retry-policy.js';
import type { StateChange } from '../../src/session/state.js';
import { ManualClock } from '../harness/manual-clock.js';
import { MemoryTransport } from '../harness/memory-transport.js';
import { settle } from '../session/fakes.js';

const CONNECT_RESPONSE = '00000025' + '00000000' + '00000bb8' + '0100000000000001' + '00000010' + '11'.repeat(16) + '00';
const CONFIG_PATH_HEX = Buffer.from('/zookeeper/config').toString('hex');

/** A reply frame: xid, zxid, err, no body. */
function reply(xid: number, err: number): string {
  const payload = xid.toString(16).padStart(8, '0') + '1'.padStart(16, '0') + (err >>> 0).toString(16).padStart(8, '0');
  return (payload.length / 2).toString(16).padStart(8, '0') + payload;
}

describe('ensemble tracker (scripted server)', () => {
  it('reads /zookeeper/config once without a watch, and stops quietly on NONODE (a 3.4 server)', async () => {
    const transport = new MemoryTransport();
    const clock = new ManualClock();
    const zk = new ZooKeeperClient('127.0.0.1:2181', { transport, clock, sessionTimeoutMs: 3000, reconnect: retryForever(0) });
    const changes: StateChange[] = [];
    zk.onStateChange((c) => changes.push(c));
    await settle();
    const stream = transport.last;
    stream.takeFrames(); // the ConnectRequest
    stream.send(CONNECT_RESPONSE);
    await settle();
    const [read, ...more] = stream.takeFrames();
    expect(more).toEqual([]);
    // getData (opcode 4) of /zookeeper/config, watch flag 0.
    expect(read?.slice(16, 24)).toBe('00000004');
    expect(read?.endsWith(`${CONFIG_PATH_HEX}00`)).toBe(true);
    const xid = parseInt(read?.slice(8, 16) as string, 16);
    stream.send(reply(xid, -101)); // NONODE
    await settle();
    expect(stream.takeFrames()).toEqual([]);
    expect(changes.map((c) => c.to)).toEqual(['connected']);
    expect(zk.serverList).toEqual(['127.0.0.1:2181']);
    const closing = zk.close();
    await settle();
    clock.advance(5000);
    await closing;
  });
});
