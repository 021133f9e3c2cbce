/**
 * A lock lost with its session, on real traffic: a Java Curator process holding a mutex is killed, the server
 * expires its session and removes its node, and the zkwire client queued behind it takes over. The analysis must
 * show the Curator hold ending as lost while its session was disconnected — not two holders at once — and no
 * orphan left behind. Then an expiry test as users write them, with killSession from zkwire/testing: its own
 * connection resumes the victim's session only to close it, which is no reconnect whose watches went missing, and
 * the victim's mutex is a lock, not a leader election.
 */

import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { InterProcessMutex } from '../../src/recipes/locks/mutex.js';
import { killSession } from '../../src/testing/kill-session.js';
import { analyzeEvents } from '../../src/tools/analyze/index.js';
import { startCuratorPeer } from '../interop/curator-peer.js';
import { eventually } from '../recipes/helpers.js';
import { traceSharedServer } from './trace-helpers.js';

it('shows a killed holder losing its lock to the next contender without calling it a violation', async () => {
  const { proxy, events } = await traceSharedServer();
  try {
    const via = `127.0.0.1:${proxy.port}`;
    const dir = `/analyze-expiry-${randomUUID()}/lock`;
    const curator = await startCuratorPeer(via, { sessionTimeoutMs: 4000 });
    const held = await curator.mutexAcquire(dir, 10_000);
    if (!held.acquired) throw new Error('Curator did not get an uncontended mutex');
    const zk = await ZooKeeperClient.connect(via, { sessionTimeoutMs: 10_000 });
    const waiting = new InterProcessMutex(zk, dir).acquire();
    await eventually(
      () => events.some((r) => r.type === 'frame' && r.dir === 's2c' && r.frame.op === 'getData' && r.frame.path === held.node && r.frame.err === 0),
      10_000,
      'zkwire to watch the Curator node',
    );
    await curator.kill();
    const lease = await waiting; // once the server has expired Curator's session
    await lease.release();
    await zk.close();
    await proxy.stop();

    const r = await analyzeEvents(events);
    const lock = r.locks.find((l) => l.dir === dir)!;
    expect(lock.violations).toEqual([]);
    expect(lock.orphans).toEqual([]);
    expect(lock.holders.map((h) => [h.node, h.session, h.how])).toEqual([
      [held.node, curator.sessionId, 'lost while its session was disconnected'],
      [lease.node, zk.sessionIdHex, 'released (node deleted)'],
    ]);
    // The Curator hold ends when its node was seen gone, which is when zkwire took over.
    expect(lock.holders[0]!.toMs).toBe(lock.holders[1]!.fromMs);
    const session = r.sessions.find((s) => s.id === curator.sessionId)!;
    expect(session).toMatchObject({ timeoutMs: 4000, disconnects: 1 });
    expect(session.end.kind).toBe('disconnected');
    expect(session.ephemerals.map((e) => e.path)).toEqual([held.node]);
  } finally {
    await proxy.stop();
  }
}, 60_000);

it('an expiry test with killSession: no watch "not re-registered", and the mutex is no election', async () => {
  const { proxy, events } = await traceSharedServer();
  try {
    const base = `/analyze-kill-${randomUUID()}`;
    const client = await ZooKeeperClient.connect(`127.0.0.1:${proxy.port}`, { sessionTimeoutMs: 10_000 });
    await client.create(base);
    await client.create(`${base}/config`);
    // Three one-shot watches, armed when the session is killed, and a mutex held.
    await client.getData(`${base}/config`, { watch: true });
    await client.exists(`${base}/flag`, { watch: true });
    await client.getChildren(base, { watch: true });
    await new InterProcessMutex(client, `${base}/lock`).acquire();
    const lost = await killSession(client);
    expect(lost.reason.code).toBe('SESSIONEXPIRED');
    await client.waitConnected();
    await client.close();
    await proxy.stop();

    const r = await analyzeEvents(events);
    expect(r.watches.notRestored).toEqual([]);
    expect(r.leaders).toEqual([]);
    expect(r.locks.map((l) => [l.dir, l.holders.length])).toEqual([[`${base}/lock`, 1]]);
    // The watches still armed ended with the session the killer closed, not lost on a reconnect (the children
    // watch fired before, when the mutex created its container).
    const ended = r.watches.list.filter((w) => w.path === `${base}/config` || w.path === `${base}/flag`).map((w) => w.dropped);
    expect(ended).toEqual(['session closed', 'session closed']);
  } finally {
    await proxy.stop();
  }
}, 60_000);
