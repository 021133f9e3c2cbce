/**
 * The client's own `onFrame` trace as a capture source: a real session's traffic goes through the same sinks as a
 * capture file (the analyzer, the printer, --check's re-encoding) and they agree with what the client did.
 */

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../../src/node.js';
import { Analyzer } from '../../../src/tools/analyze/index.js';
import type { CaptureEvent } from '../../../src/tools/capture/index.js';
import { FrameTraceSource } from '../../../src/tools/capture/onframe-source.js';
import { CaptureEventPrinter, FrameRecheck } from '../../../src/tools/decode/index.js';
import { sharedServer } from '../../harness/zookeeper.js';

describe('onFrame as a capture source', () => {
  it("a session's frames reach the analyzer, the printer and --check like a capture's", async () => {
    const events: CaptureEvent[] = [];
    const source = new FrameTraceSource((e) => events.push(e), { client: 'me', server: 'zk' });
    // No ensemble tracker: the report below counts the ops this test makes, and only those.
    const client = await ZooKeeperClient.connect((await sharedServer()).connectString, { onFrame: source.listener, trackEnsemble: false });
    const path = `/onframe-${randomUUID()}`;
    try {
      await client.create(path, new TextEncoder().encode('x'));
      await client.getData(path);
      await expect(client.getData(`${path}/missing`)).rejects.toMatchObject({ code: 'NONODE' });
      await client.delete(path);
    } finally {
      await client.close();
      source.end();
    }

    const analyzer = new Analyzer();
    for (const e of events) analyzer.add(e);
    const report = analyzer.report();
    const byOp = new Map(report.ops.byOp.map((r) => [r.key, r]));
    expect(byOp.get('create')).toMatchObject({ requests: 1, replies: 1, errors: {} });
    expect(byOp.get('getData')).toMatchObject({ requests: 2, replies: 2, errors: { NONODE: 1 } });
    expect(byOp.get('delete')).toMatchObject({ requests: 1, replies: 1 });
    expect(report.sessions).toHaveLength(1);
    expect(report.sessions[0]!.end).toMatchObject({ kind: 'closed' });

    const printer = new CaptureEventPrinter();
    const recheck = new FrameRecheck();
    const lines = events.flatMap((e) => {
      const r = printer.format(e, e.type === 'frame' ? recheck.check(e) : undefined);
      return r === undefined ? [] : [r];
    });
    expect(lines.every((l) => l.ok)).toBe(true);
    const replies = lines.map((l) => JSON.parse(l.line) as { kind: string; op?: string; path?: string; err?: string; errCode?: number; latencyMs?: number; client: string });
    expect(replies.find((r) => r.kind === 'reply' && r.path === `${path}/missing`)).toMatchObject({ op: 'getData', err: 'NONODE', errCode: -101, client: 'me' });
    expect(replies.filter((r) => r.kind === 'reply' && r.op !== 'ping').every((r) => typeof r.latencyMs === 'number')).toBe(true);
  });
});
