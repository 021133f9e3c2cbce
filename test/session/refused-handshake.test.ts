/**
 * A server that refuses the session answers the ConnectRequest with a bare reply header instead of a ConnectResponse:
 * ZooKeeper 3.8's read-only server does so with NOTREADONLY when it may not create sessions (no localSessionsEnabled).
 * The frame below is the one it sent; the client must say what it means, not call it undecodable.
 */

import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/client.js';
import { errorOf } from '../client/helpers.js';
import { ManualClock } from '../harness/manual-clock.js';
import { MemoryTransport } from '../harness/memory-transport.js';
import { settle } from './fakes.js';
import { retryForever } from '../../src/session/retry-policy.js';

describe('a refused handshake', () => {
  it('reads a reply header in place of the ConnectResponse as the server refusing the session', async () => {
    const transport = new MemoryTransport();
    const clock = new ManualClock();
    const zk = new ZooKeeperClient('127.0.0.1:2181', { transport, clock, sessionTimeoutMs: 10_000, reconnect: retryForever(0), canBeReadOnly: true });
    const call = errorOf(zk.getData('/'));
    await settle();
    // length 16 | xid 0 | zxid 0x100000004 | err -119 (NOTREADONLY), captured from a read-only ZooKeeper 3.8.0.
    transport.last.send('00000010000000000000000100000004ffffff89');
    const err = await call;
    expect(err.code).toBe('CONNECTIONLOSS');
    expect(err.message).toMatch(/127\.0\.0\.1:2181 refused the session: NOTREADONLY/);
    await zk.close();
  });
});
