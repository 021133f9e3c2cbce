import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DescribedFrameTrace, ZooKeeperClient } from '../../src/node.js';
import { OpCode } from '../../src/protocol/opcodes.js';
import { InterProcessMutex } from '../../src/recipes/locks/mutex.js';
import { connectClient, lockPath } from './helpers.js';
import { describeFrames } from '../../src/session/describe-frames.js';

/**
 * Beyond Curator: an uncontended acquire sends a listing, the create and a second listing back to back, so it costs
 * one round trip (and is decided at the create's reply: lock-one-round-trip.test.ts). Checked on the wire (the
 * frames the client writes and reads), not by timing.
 */
describe('pipelined acquire', () => {
  let client: ZooKeeperClient;
  const frames: { dir: 'c2s' | 's2c'; opcode: number | undefined; xid: number | undefined }[] = [];

  beforeAll(async () => {
    client = await connectClient(undefined, {
      onFrame: describeFrames((t: DescribedFrameTrace) => frames.push({ dir: t.dir, opcode: t.frame.opcode, xid: t.frame.xid })),
    });
  });
  afterAll(async () => {
    await client.close();
  });

  it('writes a listing, the create and a listing before the first reply, and nothing else, when uncontended', async () => {
    const path = lockPath();
    await client.mkdirp(path, { containers: true });
    frames.length = 0;
    const lease = await new InterProcessMutex(client, path).acquire();
    const seen = frames.filter((f) => f.opcode !== OpCode.ping && f.xid !== -2).map((f) => `${f.dir}:${f.opcode}`);
    // The acquire may resolve before the last listing's reply is read (it is not needed then).
    expect(seen.slice(0, 5)).toEqual([
      `c2s:${OpCode.getChildren2}`,
      `c2s:${OpCode.create2}`,
      `c2s:${OpCode.getChildren}`,
      `s2c:${OpCode.getChildren2}`,
      `s2c:${OpCode.create2}`,
    ]);
    expect(seen.slice(5)).toEqual(seen.length > 5 ? [`s2c:${OpCode.getChildren}`] : []);
    await lease.release();
  });
});
