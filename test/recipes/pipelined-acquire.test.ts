import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DescribedFrameTrace, ZooKeeperClient } from '../../src/node.js';
import { OpCode } from '../../src/protocol/opcodes.js';
import { InterProcessMutex } from '../../src/recipes/locks/mutex.js';
import { connectClient, lockPath } from './helpers.js';
import { describeFrames } from '../../src/session/describe-frames.js';

/**
 * Beyond Curator: an uncontended acquire sends the create and the getChildren back to back, so it costs one
 * round trip. Checked on the wire (the frames the client writes and reads), not by timing.
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

  it('writes create and getChildren before the first reply, and nothing else, when uncontended', async () => {
    const path = lockPath();
    await client.mkdirp(path, { containers: true });
    frames.length = 0;
    const lease = await new InterProcessMutex(client, path).acquire();
    const seen = frames.filter((f) => f.opcode !== OpCode.ping && f.xid !== -2);
    expect(seen.map((f) => `${f.dir}:${f.opcode}`)).toEqual([
      `c2s:${OpCode.create2}`,
      `c2s:${OpCode.getChildren}`,
      `s2c:${OpCode.create2}`,
      `s2c:${OpCode.getChildren}`,
    ]);
    await lease.release();
  });
});
