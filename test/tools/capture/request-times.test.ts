/** RequestTimes: the one request → reply matcher behind every source's `latencyMs` and `sessionId`. */

import { describe, expect, it } from 'vitest';
import type { DescribedFrame } from '../../../src/protocol/index.js';
import { RequestTimes } from '../../../src/tools/capture/request-times.js';

const req = (xid: number): DescribedFrame => ({ kind: 'request', xid, summary: '' });
const rep = (xid: number): DescribedFrame => ({ kind: 'reply', xid, summary: '' });

describe('RequestTimes', () => {
  it('times replies in order and overlapping pings oldest first, each once', () => {
    const t = new RequestTimes();
    t.observe(req(1), 1000);
    t.observe(req(-2), 3000);
    t.observe(req(-2), 4000);
    t.observe(req(2), 5000);
    expect(t.observe(rep(1), 21_000)).toBe(20);
    expect(t.observe(rep(-2), 33_000)).toBe(30);
    expect(t.observe(rep(-2), 44_000)).toBe(40);
    expect(t.observe(rep(2), 15_000)).toBe(10);
    expect(t.observe(rep(2), 50_000)).toBeUndefined();
    // Drained, then used again.
    t.observe(req(3), 60_000);
    expect(t.observe(rep(3), 61_500)).toBe(1.5);
  });

  it('a reply drops the older requests the server will not answer (lost replies, a standalone check)', () => {
    const t = new RequestTimes();
    t.observe(req(1), 1000); // a check: ZooKeeper never answers it on its own
    t.observe(req(2), 2000);
    expect(t.observe(rep(2), 4000)).toBe(2);
    expect(t.observe(rep(1), 5000)).toBeUndefined();
    expect(t.observe(rep(9), 5000)).toBeUndefined(); // a reply to a request before the capture: nothing to time
  });

  it('keeps many requests in flight and answers each once, in time linear in the replies', () => {
    const t = new RequestTimes();
    for (let xid = 1; xid <= 100_000; xid++) t.observe(req(xid), xid * 1000);
    let timed = 0;
    // Every other reply lost: each found reply drops the one before it.
    for (let xid = 2; xid <= 100_000; xid += 2) if (t.observe(rep(xid), xid * 1000 + 500) === 0.5) timed++;
    expect(timed).toBe(50_000);
    expect(t.observe(rep(1), 0)).toBeUndefined();
  });

  it('times the handshake and learns the session from the ConnectResponse', () => {
    const t = new RequestTimes();
    t.observe({ kind: 'connect-request', summary: '' }, 100);
    const latency = t.observe({ kind: 'connect-response', decoded: { protocolVersion: 0, timeOut: 4000, sessionId: 0x1234n, passwd: null }, summary: '' }, 2100);
    expect(latency).toBe(2);
    expect(t.sessionId).toBe(0x1234n);
  });
});
