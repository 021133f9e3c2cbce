/**
 * killSession against a real server, with no proxy in front of the client: the session is gone on the server when it
 * resolves, the client has seen LOST, renews by itself, and a LeaderLatch on it loses and regains leadership with a
 * new node on the new session.
 */

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/node.js';
import { ZooKeeperError } from '../../src/errors.js';
import type { ErrorCodeName } from '../../src/protocol/error-codes.js';
import { LeaderLatch, type LeaderLatchEvent } from '../../src/recipes/index.js';
import { killSession } from '../../src/testing/kill-session.js';
import { TestingServer } from '../../src/testing/server.js';
import { harnessCleanup } from '../harness/exit-cleanup.js';
import { realClock } from '../harness/real-timers.js';

let server: TestingServer;
beforeAll(async () => {
  server = await TestingServer.start({ clock: realClock, cleanup: harnessCleanup() });
});
afterAll(async () => {
  await server?.close();
});

describe('killSession', () => {
  it('expires the session on the server and resolves once the client saw LOST; the client then renews', async () => {
    await using zk = await connect(server.connectString, { sessionTimeoutMs: 10_000 });
    const path = `/kill-${randomUUID()}`;
    await zk.create(path, null, { mode: 'ephemeral' });
    const oldSession = zk.sessionId;
    const { watch } = await zk.exists(path, { watch: true });

    const lost = await killSession(zk);
    expect(lost.event).toBe('LOST');
    expect(lost.to).toBe('expired');
    expect(lost.reason).toMatchObject({ code: 'SESSIONEXPIRED' });
    // As docs/testing.md writes it: `reason` is typed as the client's ZooKeeperError, so this compiles (issue #29, 8).
    const code: ErrorCodeName = lost.reason.code;
    expect(code).toBe('SESSIONEXPIRED');
    expect(lost.reason).toBeInstanceOf(ZooKeeperError);

    await zk.waitConnected();
    expect(zk.sessionId).not.toBe(oldSession);
    expect(zk.sessionRenewals).toBe(1);
    expect(await zk.exists(path)).toBeNull();
    // The one-shot watch of the old session ends with the expiry (the killer's handshake took the connection away first).
    expect(await watch).toMatchObject({ type: 'None', state: 'Expired' });
  });

  it('works twice in a row on the same client, and rejects with CLOSED once the client is closed', async () => {
    const zk = await connect(server.connectString, { sessionTimeoutMs: 10_000 });
    await killSession(zk);
    await zk.waitConnected();
    const second = zk.sessionId;
    await killSession(zk);
    await zk.waitConnected();
    expect(zk.sessionId).not.toBe(second);
    expect(zk.sessionRenewals).toBe(2);
    await zk.close();
    await expect(killSession(zk)).rejects.toMatchObject({ code: 'CLOSED' });
  });

  it('ends a client with renewSession: false in expired', async () => {
    const zk = await connect(server.connectString, { sessionTimeoutMs: 10_000, renewSession: false });
    await killSession(zk);
    expect(zk.ended).toBe(true);
    expect(zk.state).toBe('expired');
  });

  it('makes a LeaderLatch lose leadership at the expiry and lead again with a new node on the new session', async () => {
    await using zk = await connect(server.connectString, { sessionTimeoutMs: 10_000 });
    const latchPath = `/latch-${randomUUID()}`;
    await using latch = new LeaderLatch(zk, latchPath, { id: 'a' });
    const events: LeaderLatchEvent['type'][] = [];
    latch.addListener((e) => events.push(e.type));
    await latch.start();
    expect(await latch.await({ timeoutMs: 10_000 })).toBe(true);
    const firstNode = latch.ourPath;
    const firstToken = latch.fencingToken;

    await killSession(zk);
    expect(latch.hasLeadership()).toBe(false);
    expect(events).toContain('notLeader');

    expect(await latch.await({ timeoutMs: 10_000 })).toBe(true);
    expect(latch.ourPath).not.toBe(firstNode);
    expect(latch.fencingToken! > firstToken!).toBe(true);
    const stat = await zk.exists(latch.ourPath!);
    expect(stat?.ephemeralOwner).toBe(zk.sessionId);
    expect(await zk.getChildren(latchPath)).toHaveLength(1);
  });
});
