/**
 * requestTimeoutMs on a fake clock and an in-memory transport, where the bound can be read exactly: the oldest
 * unanswered request is looked at every quarter of the timeout, so it fails between 1 and 1.25 times the timeout
 * after it was written; an answered one never does, and no look is left armed once nothing is pending.
 */

import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/client.js';
import type { StateChange } from '../../src/session/state.js';
import { ManualClock } from '../harness/manual-clock.js';
import { MemoryTransport } from '../harness/memory-transport.js';
import { settle } from './fakes.js';
import { retryForever } from '../../src/session/retry-policy.js';

const SESSION = '0100000000000001';
const PASSWD = '00000010' + '11'.repeat(16);
const CONNECT_RESPONSE = '00000025' + '00000000' + (30_000).toString(16).padStart(8, '0') + SESSION + PASSWD + '00';

function reply(xid: number, err: number): string {
  const payload = xid.toString(16).padStart(8, '0') + '0'.repeat(16) + (err >>> 0).toString(16).padStart(8, '0');
  return (payload.length / 2).toString(16).padStart(8, '0') + payload;
}

async function connected() {
  const transport = new MemoryTransport();
  const clock = new ManualClock();
  const changes: StateChange[] = [];
  const zk = new ZooKeeperClient('a:1', { transport, clock, sessionTimeoutMs: 30_000, requestTimeoutMs: 1000, reconnect: retryForever(0), trackEnsemble: false });
  zk.onStateChange((c) => changes.push(c));
  await settle();
  transport.last.takeFrames();
  transport.last.send(CONNECT_RESPONSE);
  await settle();
  return { transport, clock, zk, changes };
}

describe('requestTimeoutMs', () => {
  it('fails the oldest unanswered request after 1 to 1.25 times the timeout and drops the link', async () => {
    const { clock, zk, changes } = await connected();
    let outcome: unknown;
    zk.getData('/x').then(
      () => (outcome = 'resolved'),
      (e: unknown) => (outcome = e),
    );
    await settle();
    clock.advance(1249);
    await settle();
    expect(outcome).toBeUndefined();
    expect(zk.state).toBe('connected');
    clock.advance(1);
    await settle();
    expect(outcome).toMatchObject({ code: 'REQUESTTIMEOUT', op: 'getData', path: '/x' });
    expect(changes.map((c) => [c.to, (c.reason as { code?: string } | undefined)?.code])).toEqual([
      ['connected', undefined],
      ['disconnected', 'REQUESTTIMEOUT'],
    ]);
    const closing = zk.close();
    clock.advance(5000);
    await closing;
    expect(clock.pending).toBe(0);
  });

  it('leaves an answered request alone, and stops looking when nothing is pending', async () => {
    const { transport, clock, zk } = await connected();
    const read = zk.getData('/x').catch((e: unknown) => e);
    await settle();
    clock.advance(900);
    transport.last.send(reply(1, -101));
    expect(await read).toMatchObject({ code: 'NONODE' });
    clock.advance(5000);
    await settle();
    expect(zk.state).toBe('connected');
    const closing = zk.close();
    clock.advance(5000);
    await closing;
  });
});
