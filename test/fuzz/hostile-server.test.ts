/**
 * Targeted lies from a scripted fake server (the fuzzer's HostileServer with a fixed plan), each a contract the
 * random fuzzing also checks, written out so a failure names the broken rule. The client is the real
 * ZooKeeperClient over the in-memory transport on virtual time.
 */

import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/client.js';
import { ZooKeeperError } from '../../src/errors.js';
import { OpCode } from '../../src/protocol/index.js';
import type { StateChange } from '../../src/session/state.js';
import type { HandshakeAct, ReplyAct } from './engine/hostile-server.js';
import { Prng } from '../harness/prng.js';
import { VirtualLink } from './engine/virtual-link.js';
import { describeFrames } from '../../src/session/describe-frames.js';
import { retryForever } from '../../src/session/retry-policy.js';

const T = 6000;
/** A dead link is noticed after 2/3 T and the session given up 4/3 T after the last frame: 3 T is generous. */
const BOUND = 3 * T + 10_000;

interface Setup {
  handshake?: (conn: number) => HandshakeAct;
  reply?: (conn: number, xid: number, opcode: number) => ReplyAct;
  timeOut?: number;
  auth?: 'ok' | 'silent' | 'failed';
}

function setup(plan: Setup = {}, maxFrameSize?: number, renewSession = true) {
  const link = new VirtualLink(new Prng(1), { plan, ...(maxFrameSize === undefined ? {} : { clientMaxFrameSize: maxFrameSize }) });
  const changes: StateChange[] = [];
  let pingsSent = 0;
  const client = new ZooKeeperClient('hostile:2181', {
    transport: link.transport,
    clock: link.clock,
    sessionTimeoutMs: T,
    random: () => 0.5,
    reconnect: retryForever(10),
    renewSession,
    ...(maxFrameSize === undefined ? {} : { maxFrameSize }),
    onFrame: describeFrames((f) => {
      if (f.dir === 'c2s' && f.frame.opcode === OpCode.ping) pingsSent++;
    }),
  });
  client.onStateChange((c) => void changes.push(c));
  return { link, client, changes, pings: () => pingsSent };
}

/** Settles `p` on virtual time; fails if it is still pending after `bound` ms. */
async function outcome<T>(link: VirtualLink, p: Promise<T>, bound = BOUND): Promise<{ value?: T; error?: unknown }> {
  let done: { value?: T; error?: unknown } | undefined;
  p.then(
    (value) => (done = { value }),
    (error: unknown) => (done = { error }),
  );
  const settled = await link.runUntil(() => done !== undefined, bound);
  if (!settled) throw new Error(`still pending after ${bound} ms of virtual time`);
  return done!;
}

/**
 * For a promise whose outcome a later `outcome()` reads: handled from the start, so settling it while an earlier
 * call is awaited is not reported as an unhandled rejection (outcome() still sees the rejection itself).
 */
function later<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

function codeOf(o: { error?: unknown }): string {
  if (o.error === undefined) return 'resolved';
  return o.error instanceof ZooKeeperError ? o.error.code : `untyped: ${String(o.error)}`;
}

async function closeAndCheck(s: ReturnType<typeof setup>): Promise<void> {
  await outcome(s.link, s.client.close());
  expect(s.link.clock.pending).toBe(0);
  expect(s.link.transport.openStreams).toBe(0);
  expect(s.link.transport.thrown).toEqual([]);
  expect(s.link.server.clientViolations).toEqual([]);
}

describe('a hostile server gets typed errors and reconnects, never a crash or a hang', () => {
  it('garbage right after a valid handshake: the call fails CONNECTIONLOSS, the client reconnects and the next call succeeds', async () => {
    const s = setup({ handshake: (conn) => (conn === 1 ? 'trailing-garbage' : 'ok') });
    expect(codeOf(await outcome(s.link, s.client.getData('/a')))).toBe('CONNECTIONLOSS');
    const ok = await outcome(s.link, s.client.getData('/a'));
    expect(codeOf(ok)).toBe('resolved');
    expect(s.link.server.connections).toBe(2);
    expect(s.changes.some((c) => c.to === 'disconnected' && c.reason instanceof ZooKeeperError && c.reason.code === 'PROTOCOL_ERROR')).toBe(true);
    await closeAndCheck(s);
  });

  it('a ConnectResponse with timeOut 0 and renewSession: false: every call fails SESSIONEXPIRED and the client has ended', async () => {
    const s = setup({ handshake: () => 'timeout-zero' }, undefined, false);
    const calls: Promise<unknown>[] = [later<unknown>(s.client.getData('/a')), later<unknown>(s.client.create('/b')), later<unknown>(s.client.sync('/'))];
    for (const c of calls) expect(codeOf(await outcome(s.link, c))).toBe('SESSIONEXPIRED');
    expect(s.client.state).toBe('expired');
    expect(codeOf(await outcome(s.link, s.client.exists('/a')))).toBe('SESSIONEXPIRED');
    await closeAndCheck(s);
  });

  it('a ConnectResponse with timeOut 0 to every new session: calls fail SESSIONEXPIRED, renewals back off instead of spinning', async () => {
    const s = setup({ handshake: () => 'timeout-zero' });
    for (let i = 0; i < 3; i++) expect(codeOf(await outcome(s.link, s.client.getData('/a')))).toBe('SESSIONEXPIRED');
    expect(s.client.ended).toBe(false);
    const before = s.link.server.connections;
    // 100, 200, 400, ... ms between renewals, capped at 10 s: a minute of virtual time holds about a dozen of them.
    await s.link.runUntil(() => false, 60_000);
    const dialled = s.link.server.connections - before;
    expect(dialled).toBeGreaterThan(2);
    expect(dialled).toBeLessThan(20);
    await closeAndCheck(s);
  });

  it('a frame one byte over the client limit: FRAME_TOO_LARGE drops the link, the call fails CONNECTIONLOSS, then recovery', async () => {
    let first = true;
    const s = setup({ reply: () => (first ? ((first = false), 'over-limit') : 'ok') }, 4096);
    expect(codeOf(await outcome(s.link, s.client.getData('/a')))).toBe('CONNECTIONLOSS');
    expect(s.changes.some((c) => c.reason instanceof ZooKeeperError && c.reason.code === 'FRAME_TOO_LARGE')).toBe(true);
    expect(codeOf(await outcome(s.link, s.client.getData('/a')))).toBe('resolved');
    await closeAndCheck(s);
  });

  it('an error number ZooKeeper does not define: UNKNOWN_ERROR with the number, and the session stays up', async () => {
    let first = true;
    const s = setup({ reply: () => (first ? ((first = false), 'unknown-error-code') : 'ok') });
    const o = await outcome(s.link, s.client.getData('/a'));
    expect(codeOf(o)).toBe('UNKNOWN_ERROR');
    expect(typeof (o.error as ZooKeeperError).errno).toBe('number');
    expect(codeOf(await outcome(s.link, s.client.getData('/a')))).toBe('resolved');
    expect(s.link.server.connections).toBe(1);
    await closeAndCheck(s);
  });

  it('notifications for paths nobody watches (and unknown event types) are ignored; the reply after them arrives', async () => {
    const s = setup({ reply: () => 'notification' });
    for (let i = 0; i < 5; i++) expect(codeOf(await outcome(s.link, s.client.getChildren('/a')))).toBe('resolved');
    expect(s.link.server.connections).toBe(1);
    await closeAndCheck(s);
  });

  for (const act of ['wrong-xid', 'reserved-xid', 'truncated-body', 'lying-length', 'garbage', 'mutated', 'duplicate'] as const) {
    it(`${act}: a typed error or the right value, and the next call on a healthy link succeeds`, async () => {
      let lies = 3;
      const s = setup({ reply: () => (lies-- > 0 ? act : 'ok') });
      for (let i = 0; i < 3; i++) {
        const o = await outcome(s.link, s.client.getData('/a'));
        if (o.error !== undefined) expect(o.error).toBeInstanceOf(ZooKeeperError);
      }
      expect(codeOf(await outcome(s.link, s.client.getData('/a')))).toBe('resolved');
      await closeAndCheck(s);
    });
  }

  it('a reply cut into one-byte chunks is reassembled', async () => {
    const s = setup({ reply: () => 'one-byte-chunks' });
    const o = await outcome(s.link, s.client.getData('/a'));
    expect(codeOf(o)).toBe('resolved');
    await closeAndCheck(s);
  });
});

describe('regressions: bugs the fuzzer found', () => {
  it('a ConnectResponse granting timeOut 2 ms does not drive a zero-delay ping loop', async () => {
    const s = setup({ timeOut: 2 });
    await s.link.advance(1000);
    // timingFor(2) gives pingIntervalMs 0: the ping timer re-arms at 0 ms for ever (a ping flood in real time).
    expect(s.link.clock.storm).toBeUndefined();
    expect(s.pings()).toBeLessThanOrEqual(1000);
    await closeAndCheck(s);
  });

  for (const act of ['silent', 'ping-xid', 'auth-xid'] as const) {
    it(`a request whose reply never comes (${act}) while pings are answered settles within 3 session timeouts`, async () => {
      // ZooKeeper answers pings through the same pipeline as requests, in order: a ping
      // reply that overtakes an older request proves that request's reply is lost.
      let first = true;
      const s = setup({ reply: () => (first ? ((first = false), act) : 'ok') });
      const o = await outcome(s.link, s.client.getData('/a')).catch((e: Error) => ({ error: e }));
      expect(codeOf(o)).toBe('CONNECTIONLOSS');
      await closeAndCheck(s);
    });
  }

  it('an auth packet whose reply never comes while pings are answered: addAuth settles within 3 session timeouts', async () => {
    // Found by the fuzzer (seed 11, input 18085: a truncated frame swallowed the auth reply). The server handles
    // auth on arrival, before anything sent after it, so a ping reply while an older auth is in flight proves its
    // reply is lost, just as for ordinary requests.
    const s = setup({ auth: 'silent' });
    expect(codeOf(await outcome(s.link, s.client.getData('/a')))).toBe('resolved');
    const o = await outcome(s.link, s.client.addAuth('digest', 'u:p')).catch((e: Error) => ({ error: e }));
    expect(codeOf(o)).toBe('CONNECTIONLOSS');
    await closeAndCheck(s);
  });

  it('AUTHFAILED from the server ends the session: addAuth and every pending call get AUTHFAILED', async () => {
    const s = setup({ auth: 'failed' });
    expect(codeOf(await outcome(s.link, s.client.getData('/a')))).toBe('resolved');
    const auth = s.client.addAuth('digest', 'u:p');
    const after = later(s.client.getData('/a'));
    expect(codeOf(await outcome(s.link, auth))).toBe('AUTHFAILED');
    expect(codeOf(await outcome(s.link, after))).toBe('AUTHFAILED');
    expect(s.client.state).toBe('auth-failed');
    await closeAndCheck(s);
  });
});
