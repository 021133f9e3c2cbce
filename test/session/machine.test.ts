/**
 * State-machine behaviour with a fake clock and an in-memory transport: timeouts, host rotation,
 * client-side expiry, protocol errors, and that nothing is left behind. Replies are hand-built frames.
 */

import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/client.js';
import { ZooKeeperError } from '../../src/errors.js';
import type { StateChange } from '../../src/session/state.js';
import { ManualClock } from '../harness/manual-clock.js';
import { MemoryTransport, type MemoryStream } from '../harness/memory-transport.js';
import { settle } from './fakes.js';
import { retryForever } from '../../src/session/retry-policy.js';

const SESSION = '0100000000000001';
const PASSWD = '00000010' + '11'.repeat(16);

function connectResponse(timeOut: number, readOnly = false): string {
  return '00000025' + '00000000' + timeOut.toString(16).padStart(8, '0') + SESSION + PASSWD + (readOnly ? '01' : '00');
}

function reply(xid: number, zxid: number, err: number, body = ''): string {
  const payload = xid.toString(16).padStart(8, '0') + BigInt.asUintN(64, BigInt(zxid)).toString(16).padStart(16, '0') + (err >>> 0).toString(16).padStart(8, '0') + body;
  return (payload.length / 2).toString(16).padStart(8, '0') + payload;
}

async function setup(hosts = '127.0.0.1:2181', sessionTimeoutMs = 3000, renewSession = true) {
  const transport = new MemoryTransport();
  const clock = new ManualClock();
  const changes: StateChange[] = [];
  // No ensemble tracker: the scripted server answers only the requests each test makes (its xids are counted).
  const zk = new ZooKeeperClient(hosts, { transport, clock, sessionTimeoutMs, reconnect: retryForever(0), random: () => 0.99, renewSession, trackEnsemble: false });
  zk.onStateChange((c) => changes.push(c));
  await settle();
  return { transport, clock, zk, changes };
}

/** Closes with the fake clock: the scripted server never answers closeSession, so the bounded wait runs out. */
async function shut(zk: ZooKeeperClient, clock: ManualClock): Promise<void> {
  const closing = zk.close();
  await settle();
  clock.advance(5000);
  await closing;
}

async function handshake(stream: MemoryStream, timeOut = 3000, readOnly = false): Promise<void> {
  stream.takeFrames();
  stream.send(connectResponse(timeOut, readOnly));
  await settle();
}

describe('session state machine', () => {
  it('drops a silent link after 2/3 of the timeout and resumes on the next host', async () => {
    const { transport, clock, zk, changes } = await setup('a:1,b:2');
    await handshake(transport.last);
    const pending = zk.getData('/x');
    await settle();
    clock.advance(1999);
    expect(zk.state).toBe('connected');
    clock.advance(1);
    expect(zk.state).toBe('disconnected');
    const err = await pending.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZooKeeperError);
    expect(err).toMatchObject({ code: 'CONNECTIONLOSS', op: 'getData', path: '/x' });
    expect(changes.map((c) => c.event)).toEqual(['CONNECTED', 'SUSPENDED']);
    await settle();
    expect(transport.attempts.map((e) => e.host)).toEqual(['a', 'b']);
    const resume = transport.last.takeFrames()[0]!;
    expect(resume).toContain(SESSION);
    transport.last.send(connectResponse(3000));
    expect(zk.state).toBe('connected');
    expect(changes.at(-1)?.event).toBe('RECONNECTED');
    await shut(zk, clock);
  });

  it('gives each host T/n to complete the handshake', async () => {
    const { transport, clock, zk } = await setup('a:1,b:2,c:3');
    expect(transport.attempts.length).toBe(1);
    clock.advance(999);
    await settle();
    expect(transport.attempts.length).toBe(1);
    clock.advance(1);
    await settle();
    expect(transport.attempts.length).toBe(2);
    expect(transport.streams[0]?.closed).toBe(true);
    await handshake(transport.last);
    expect(zk.state).toBe('connected');
    await shut(zk, clock);
  });

  it('expires the session locally after 4/3 of the timeout without any server, settling queued calls', async () => {
    const { transport, clock, zk, changes } = await setup('127.0.0.1:2181', 3000, false);
    await handshake(transport.last);
    const { watch } = await (async () => {
      const p = zk.exists('/w', { watch: true });
      await settle();
      transport.last.send(reply(1, 5, -101));
      return p;
    })();
    transport.refuse = true;
    transport.last.end();
    const queued = zk.create('/q');
    // The handler goes on before the clock moves: `queued` is rejected while the loop below runs — with
    // CONNECTIONLOSS as soon as a pass over the (one) host has failed, before the session expires.
    const queuedCode = expect(queued).rejects.toMatchObject({ code: 'CONNECTIONLOSS' });
    for (let i = 0; i < 40 && zk.state !== 'expired'; i++) {
      clock.advance(100);
      await settle();
    }
    expect(zk.state).toBe('expired');
    expect(changes.at(-1)).toMatchObject({ to: 'expired', event: 'LOST' });
    await queuedCode;
    expect(await watch).toMatchObject({ type: 'None', state: 'Expired' });
    expect(clock.pending).toBe(0);
    expect(transport.openStreams).toBe(0);
  });

  it('after a local expiry, a renewing client dials a new session (id 0) and calls made meanwhile go there', async () => {
    const { transport, clock, zk, changes } = await setup();
    await handshake(transport.last);
    const read = zk.exists('/seen');
    await settle();
    transport.last.takeFrames();
    transport.last.send(reply(1, 0x2a, -101));
    expect(await read).toBeNull();
    transport.refuse = true;
    transport.last.end();
    for (let i = 0; i < 40 && !changes.some((c) => c.event === 'LOST'); i++) {
      clock.advance(100);
      await settle();
    }
    expect(changes.at(-2)).toMatchObject({ to: 'expired', event: 'LOST', newSession: false });
    expect(changes.at(-1)).toMatchObject({ from: 'expired', to: 'connecting' });
    expect(zk.ended).toBe(false);
    const later = zk.exists('/later');
    transport.refuse = false;
    clock.advance(100);
    await settle();
    // The new session's ConnectRequest: length, protocol 0, the last zxid seen (0x2a: never an older view than the
    // old session's), timeout, session id 0, a zero password.
    const request = transport.last.takeFrames()[0] ?? '';
    expect(request.slice(16, 32)).toBe('000000000000002a');
    expect(request.slice(8 + 8 + 16 + 8, 8 + 8 + 16 + 8 + 16)).toBe('0'.repeat(16));
    transport.last.send(connectResponse(3000));
    await settle();
    expect(changes.at(-1)).toMatchObject({ to: 'connected', event: 'RECONNECTED', newSession: true });
    expect(zk.sessionRenewals).toBe(1);
    transport.last.takeFrames();
    transport.last.send(reply(1, 7, -101));
    expect(await later).toBeNull();
    await shut(zk, clock);
    expect(zk.ended).toBe(true);
    expect(clock.pending).toBe(0);
    expect(transport.openStreams).toBe(0);
  });

  it('drops the link as PROTOCOL_ERROR when a reply does not match the oldest request', async () => {
    const { transport, clock, zk, changes } = await setup();
    await handshake(transport.last);
    const a = zk.getData('/a');
    const b = zk.getData('/b');
    await settle();
    transport.last.send(reply(2, 7, 0));
    const [ea, eb] = await Promise.all([a.catch((e: unknown) => e), b.catch((e: unknown) => e)]);
    expect(ea).toMatchObject({ code: 'CONNECTIONLOSS' });
    expect((ea as ZooKeeperError).cause).toMatchObject({ code: 'PROTOCOL_ERROR' });
    expect(eb).toMatchObject({ code: 'CONNECTIONLOSS' });
    expect(changes.find((c) => c.to === 'disconnected')?.reason).toMatchObject({ code: 'PROTOCOL_ERROR' });
    await settle();
    expect(transport.streams.length).toBe(2);
    await shut(zk, clock);
  });

  it('takes an UNIMPLEMENTED reply that overtakes earlier requests (ZooKeeper 3.4) as the answer to its xid', async () => {
    const { transport, clock, zk, changes } = await setup();
    await handshake(transport.last);
    const early = zk.getData('/a');
    const late = zk.create('/b', 'x', { stat: true }); // create2: unknown to 3.4, refused before its pipeline
    const after = zk.exists('/c');
    await settle();
    // 3.4 answers create2 (xid 2) at once, ahead of the getData (xid 1) still in its pipeline; the rest come in order.
    // (The real 3.4 then closes the link: the compat tests cover that; here only the routing is under test.)
    transport.last.send(reply(2, -1, -6));
    await expect(late).rejects.toMatchObject({ code: 'UNIMPLEMENTED', op: 'create', path: '/b' });
    expect(zk.serverFeatures.createWithStat).toBe(false);
    const stat = '0'.repeat(2 * 68);
    transport.last.send(reply(1, 7, 0, '00000002' + '6869' + stat), reply(3, 7, -101));
    expect(new TextDecoder().decode((await early).data)).toBe('hi');
    expect(await after).toBeNull();
    expect(zk.state).toBe('connected');
    expect(changes.map((c) => c.event)).toEqual(['CONNECTED']);
    expect(transport.streams.length).toBe(1);
    // Any other reply out of order still breaks the link, an UNIMPLEMENTED for no pending xid too.
    const d = zk.getData('/d');
    const e = zk.getData('/e');
    await settle();
    transport.last.send(reply(99, -1, -6));
    await expect(d).rejects.toMatchObject({ code: 'CONNECTIONLOSS', cause: { code: 'PROTOCOL_ERROR' } });
    await expect(e).rejects.toMatchObject({ code: 'CONNECTIONLOSS' });
    await shut(zk, clock);
  });

  it('treats an over-limit or negative frame length as a typed error and reconnects', async () => {
    for (const [bytes, code] of [
      ['7fffffff', 'FRAME_TOO_LARGE'],
      ['ffffff00', 'PROTOCOL_ERROR'],
      ['00000003aabbcc', 'PROTOCOL_ERROR'],
    ] as const) {
      const { transport, clock, zk, changes } = await setup();
      await handshake(transport.last);
      transport.last.send(bytes);
      expect(changes.at(-1)?.reason, bytes).toMatchObject({ code });
      await settle();
      expect(transport.streams.length).toBe(2);
      await handshake(transport.last);
      expect(zk.state).toBe('connected');
      await shut(zk, clock);
    }
  });

  it('turns unknown server error numbers into UNKNOWN_ERROR with the number kept', async () => {
    const { transport, clock, zk } = await setup();
    await handshake(transport.last);
    const p = zk.delete('/a');
    await settle();
    transport.last.send(reply(1, 9, -999));
    await expect(p).rejects.toMatchObject({ code: 'UNKNOWN_ERROR', errno: -999, op: 'delete', path: '/a' });
    expect(zk.state).toBe('connected');
    await shut(zk, clock);
  });

  it('enters connected-read-only for a read-only server', async () => {
    const transport = new MemoryTransport();
    const clock = new ManualClock();
    const zk = new ZooKeeperClient('a:1', { transport, clock, sessionTimeoutMs: 3000, canBeReadOnly: true });
    await settle();
    const request = transport.last.takeFrames()[0]!;
    expect(request.endsWith('01')).toBe(true); // the readOnly byte
    transport.last.send(connectResponse(3000, true));
    expect(zk.state).toBe('connected-read-only');
    await shut(zk, clock);
  });

  it('takes a NOTREADONLY reply that overtakes earlier reads on a read-only server as the answer to its write', async () => {
    const transport = new MemoryTransport();
    const clock = new ManualClock();
    const zk = new ZooKeeperClient('a:1', { transport, clock, sessionTimeoutMs: 3000, canBeReadOnly: true, trackEnsemble: false });
    await settle();
    await handshake(transport.last, 3000, true);
    expect(zk.state).toBe('connected-read-only');
    const read = zk.getData('/a');
    const write = zk.setData('/a', 'x');
    const after = zk.exists('/c');
    await settle();
    // ReadOnlyRequestProcessor answers a write (xid 2) itself, while the read before it (xid 1) is still in the
    // pipeline behind it (seen on ZooKeeper 3.8 and 3.9: the ensemble tracker's read was overtaken by a setData).
    transport.last.send(reply(2, 7, -119));
    await expect(write).rejects.toMatchObject({ code: 'NOTREADONLY', op: 'setData', path: '/a' });
    const stat = '0'.repeat(2 * 68);
    transport.last.send(reply(1, 7, 0, '00000002' + '6869' + stat), reply(3, 7, -101));
    expect(new TextDecoder().decode((await read).data)).toBe('hi');
    expect(await after).toBeNull();
    expect(zk.state).toBe('connected-read-only');
    expect(transport.streams.length).toBe(1);
    await shut(zk, clock);
  });

  it('close() is bounded when the server never answers closeSession, and leaves nothing behind', async () => {
    const { transport, clock, zk } = await setup('a:1', 6000);
    await handshake(transport.last, 6000);
    const inflight = zk.getData('/slow');
    const closing = zk.close();
    await settle();
    clock.advance(2000);
    await closing;
    expect(zk.state).toBe('closed');
    await expect(inflight).rejects.toMatchObject({ code: 'CLOSED' });
    expect(clock.pending).toBe(0);
    expect(transport.openStreams).toBe(0);
  });

  it('close() while still connecting releases the pending attempt', async () => {
    const transport = new MemoryTransport();
    transport.hang = true;
    const clock = new ManualClock();
    const zk = new ZooKeeperClient('a:1', { transport, clock, sessionTimeoutMs: 3000 });
    const queued = zk.getData('/x');
    await zk.close();
    await expect(queued).rejects.toMatchObject({ code: 'CLOSED' });
    await settle();
    expect(clock.pending).toBe(0);
  });

  it('connect() gives up with TIMEOUT and closes the client', async () => {
    const transport = new MemoryTransport();
    transport.refuse = true;
    const clock = new ManualClock();
    const p = ZooKeeperClient.connect('a:1', { transport, clock, sessionTimeoutMs: 3000, reconnect: retryForever(10) });
    const result = p.catch((e: unknown) => e);
    for (let i = 0; i < 40; i++) {
      clock.advance(100);
      await settle();
    }
    expect(await result).toMatchObject({ code: 'TIMEOUT', op: 'connect' });
    expect(clock.pending).toBe(0);
  });
});
