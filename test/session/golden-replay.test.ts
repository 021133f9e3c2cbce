/**
 * The session against scripted servers that answer with frames captured from a real ZooKeeper 3.8.0
 * (test/fixtures/golden): our requests must match the Java client's bytes, and the golden replies must drive
 * the state machine. An addition to the real-server tests, not a replacement.
 */

import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/client.js';
import { decodeRequestBody, JuteReader, decodeRequestHeader } from '../../src/protocol/index.js';
import type { WatchEvent } from '../../src/session/watches.js';
import { ManualClock } from '../harness/manual-clock.js';
import { MemoryTransport } from '../harness/memory-transport.js';
import { golden, settle } from './fakes.js';
import { retryForever } from '../../src/session/retry-policy.js';

function frames(file: string, conn: number, dir: 'c2s' | 's2c'): string[] {
  return golden(file)
    .filter((f) => f.conn === conn && f.dir === dir)
    .map((f) => f.hex);
}

function newClient(transport: MemoryTransport, clock: ManualClock, sessionTimeoutMs: number): ZooKeeperClient {
  // The captures come from a 3.8.0 server; a scripted server cannot answer the srvr a client would ask it. The
  // recorded conversations end with their session: no renewal to script.
  // No ensemble tracker: the golden conversations are the Java client's, which has none (Curator adds it).
  return new ZooKeeperClient('127.0.0.1:2181', { transport, clock, sessionTimeoutMs, reconnect: retryForever(0), serverVersion: '3.8.0', renewSession: false, trackEnsemble: false });
}

describe('replaying golden conversations', () => {
  it('reconnect with setWatches2: same bytes as the Java client, catch-up events before the reply', async () => {
    const file = 'reconnect_setwatches2.jsonl';
    const c2s1 = frames(file, 1, 'c2s');
    const s2c1 = frames(file, 1, 's2c');
    const c2s2 = frames(file, 2, 'c2s');
    const s2c2 = frames(file, 2, 's2c');
    const transport = new MemoryTransport();
    const clock = new ManualClock();
    const zk = newClient(transport, clock, 30_000);
    await settle();
    const first = transport.last;
    expect(first.takeFrames()).toEqual([c2s1[0]]);
    first.send(s2c1[0]!);
    expect(zk.state).toBe('connected');
    expect(zk.sessionIdHex).toBe('0x1000013bb72001e');

    const d = zk.getData('/g-rw2/d', { watch: true });
    const absent = zk.exists('/g-rw2/absent', { watch: true });
    const c = zk.getChildren('/g-rw2/c', { watch: true });
    const quiet = zk.getData('/g-rw2/quiet', { watch: true });
    const recursive = zk.addWatch('/g-rw2', { mode: 'persistent-recursive' });
    const synced = zk.sync('/');
    await settle();
    expect(first.writes).toBe(1); // one coalesced write for six requests
    expect(first.takeFrames()).toEqual(c2s1.slice(1));
    first.send(...s2c1.slice(1));
    const [dr, ar, cr, , rw] = await Promise.all([d, absent, c, quiet, recursive, synced]);
    expect(ar.stat).toBeNull();

    const states: string[] = [];
    zk.onStateChange((ch) => states.push(`${ch.to}:${ch.event ?? ''}`));
    first.end();
    expect(zk.state).toBe('disconnected');
    await settle();
    const second = transport.last;
    expect(second).not.toBe(first);
    const sent = second.takeFrames();
    expect(sent).toEqual([c2s2[0]]); // same sessionId, passwd and lastZxidSeen (0x9b) as the Java client
    second.send(s2c2[0]!);
    expect(states).toEqual(['disconnected:SUSPENDED', 'connected:RECONNECTED']);
    const [setWatches] = second.takeFrames();
    // The Java client listed the data watches in HashMap order; compare the lists as sets.
    const r = new JuteReader(Buffer.from(setWatches!, 'hex').subarray(4));
    expect(decodeRequestHeader(r)).toEqual({ xid: 7, type: 105 });
    const body = decodeRequestBody(105, r) as Record<string, unknown>;
    const want = decodeRequestBody(105, new JuteReader(Buffer.from(c2s2[1]!, 'hex').subarray(12))) as Record<string, unknown>;
    expect(body['relativeZxid']).toBe(want['relativeZxid']);
    for (const key of ['dataWatches', 'existWatches', 'childWatches', 'persistentWatches', 'persistentRecursiveWatches']) {
      expect([...(body[key] as string[])].sort(), key).toEqual([...(want[key] as string[])].sort());
    }

    const order: string[] = [];
    void dr.watch.then((e) => order.push(`${e.type} ${e.path}`));
    void ar.watch.then((e) => order.push(`${e.type} ${e.path}`));
    void cr.watch.then((e) => order.push(`${e.type} ${e.path}`));
    second.send(...s2c2.slice(1, -1)); // three notifications, then the setWatches2 reply
    await settle();
    expect(order).toEqual(['NodeDataChanged /g-rw2/d', 'NodeCreated /g-rw2/absent', 'NodeChildrenChanged /g-rw2/c']);
    const recursiveEvents: WatchEvent[] = [];
    while (rw.buffered > 0) recursiveEvents.push((await rw.next())!);
    expect(recursiveEvents.map((e) => `${e.type} ${e.path}`)).toEqual(['NodeDataChanged /g-rw2/d', 'NodeCreated /g-rw2/absent']);

    const closing = zk.close();
    await settle();
    expect(second.takeFrames()).toEqual([c2s2[2]]); // closeSession with the next xid (8)
    second.send(s2c2[s2c2.length - 1]!);
    await closing;
    expect(zk.state).toBe('closed');
    expect(clock.pending).toBe(0);
    expect(transport.openStreams).toBe(0);
    expect(await rw.next()).toEqual({ type: 'None', state: 'Closed', path: undefined });
  });

  it('pings when idle for a third of the session timeout and survives on the replies', async () => {
    const file = 'ping.jsonl';
    const c2s = frames(file, 1, 'c2s');
    const s2c = frames(file, 1, 's2c');
    const transport = new MemoryTransport();
    const clock = new ManualClock();
    const zk = newClient(transport, clock, 10_000);
    await settle();
    const link = transport.last;
    expect(link.takeFrames()).toEqual([c2s[0]]);
    link.send(s2c[0]!);
    expect(zk.negotiatedTimeoutMs).toBe(10_000);
    clock.advance(3332);
    expect(link.takeFrames()).toEqual([]);
    clock.advance(1);
    expect(link.takeFrames()).toEqual([c2s[1]]);
    link.send(s2c[1]!);
    clock.advance(3333);
    expect(link.takeFrames()).toEqual([c2s[2]]);
    link.send(s2c[2]!);
    // Many intervals with answered pings: the link stays up.
    for (let i = 0; i < 10; i++) {
      clock.advance(3333);
      expect(link.takeFrames()).toEqual(['00000008fffffffe0000000b']);
      link.send(s2c[2]!);
    }
    expect(zk.state).toBe('connected');
    expect(transport.streams.length).toBe(1);
    const closing = zk.close();
    await settle();
    expect(link.takeFrames()).toEqual([c2s[3]]);
    link.send(s2c[3]!);
    await closing;
    expect(clock.pending).toBe(0);
  });

  it('a resume answered with timeOut 0 expires the session: calls reject, watches get a final event', async () => {
    const file = 'session_expired.jsonl';
    const transport = new MemoryTransport();
    const clock = new ManualClock();
    const zk = newClient(transport, clock, 4000);
    await settle();
    transport.last.takeFrames();
    transport.last.send(frames(file, 1, 's2c')[0]!);
    const watch = zk.exists('/g-expire-eph', { watch: true });
    await settle();
    transport.last.send('0000001000000001000000000000000cffffff9b'); // NONODE: an exist watch is left
    const { watch: fired } = await watch;
    transport.last.end();
    const queued = zk.getData('/queued');
    await settle();
    // The resume carries conn 1's session id and password, and the zxid of our last reply (0xc).
    const golden2 = frames(file, 2, 'c2s')[0]!;
    const resume = golden2.slice(0, 16) + '000000000000000c' + golden2.slice(32);
    expect(transport.last.takeFrames()).toEqual([resume]);
    transport.last.send(frames(file, 2, 's2c')[0]!);
    expect(zk.state).toBe('expired');
    await expect(queued).rejects.toMatchObject({ code: 'SESSIONEXPIRED', op: 'getData', path: '/queued' });
    await expect(zk.create('/x')).rejects.toMatchObject({ code: 'SESSIONEXPIRED' });
    expect(await fired).toEqual({ type: 'None', state: 'Expired', path: undefined });
    expect(clock.pending).toBe(0);
    expect(transport.openStreams).toBe(0);
    await zk.close();
    expect(zk.state).toBe('expired');
  });
});
