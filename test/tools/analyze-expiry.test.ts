/**
 * A lock lost with its session, on real traffic: a Java Curator process holding a mutex is killed, the server
 * expires its session and removes its node, and the zkwire client queued behind it takes over. The analysis must
 * show the Curator hold ending as lost while its session was disconnected — not two holders at once — and no
 * orphan left behind.
 */

import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { InterProcessMutex } from '../../src/recipes/locks/mutex.js';
import { analyzeEvents } from '../../src/tools/analyze/index.js';
import type { CaptureEvent } from '../../src/tools/capture/events.js';
import { startTraceProxy } from '../../src/tools/trace/index.js';
import { sharedServer } from '../harness/zookeeper.js';
import { startCuratorPeer } from '../interop/curator-peer.js';
import { eventually } from '../recipes/helpers.js';

it('shows a killed holder losing its lock to the next contender without calling it a violation', async () => {
  const first = (await sharedServer()).connectString.split(',')[0]!;
  const colon = first.lastIndexOf(':');
  const events: CaptureEvent[] = [];
  const proxy = await startTraceProxy({
    listen: { host: '127.0.0.1', port: 0 },
    upstream: { host: first.slice(0, colon), port: Number(first.slice(colon + 1)) },
    onEvent: (e) => events.push(e),
  });
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
