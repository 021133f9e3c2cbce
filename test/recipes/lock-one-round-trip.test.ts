/**
 * An uncontended acquire is decided at its create's reply (#22: acquire ≤ 1.15× one create round trip). The
 * foundation lists the lock directory just before the create, in the same write; when the create gets the sequence
 * number that listing foretold, no other node was created in between and the listing plus our node is the
 * directory as a listing after the create would show it. When another create slipped in, the listing sent behind
 * the create decides, as before. Both are pinned here: the first on a real server (the reply of the listing behind
 * the create is swallowed by the fault proxy, and the acquire still holds before the client can notice it), the
 * second on the in-memory server, whose transport lets a test put another session's create between the two.
 */

import { describe, expect, it } from 'vitest';
import { ZooKeeperClient, type ByteStream, type Transport } from '../../src/node.js';
import { OpCode } from '../../src/protocol/index.js';
import { nextSequence, sequenceOfName } from '../../src/recipes/common/sequence.js';
import { InterProcessMutex } from '../../src/recipes/locks/mutex.js';
import { InMemoryZooKeeper } from '../../src/testing/in-memory/server.js';
import { lockPath, useProxiedServer } from './helpers.js';

describe('the sequence a listing foretells', () => {
  it('is the count of creates: (cversion + numChildren) / 2 for a parent made by a client', () => {
    expect(nextSequence({ cversion: 0, numChildren: 0 })).toBe(0);
    expect(nextSequence({ cversion: 3, numChildren: 1 })).toBe(2); // two creates, one delete
    expect(nextSequence({ cversion: 4, numChildren: 0 })).toBe(2);
  });

  it('is not told when the Stat cannot come from creates and deletes from zero, or the counter could wrap', () => {
    expect(nextSequence({ cversion: -1, numChildren: 1 })).toBeUndefined(); // "/" on a fresh server
    expect(nextSequence({ cversion: 3, numChildren: 0 })).toBeUndefined();
    expect(nextSequence({ cversion: 2 ** 30, numChildren: 0 })).toBeUndefined();
  });

  it("reads a name's sequence from its last ten characters", () => {
    expect(sequenceOfName('_c_0b7e4c2e-8d1f-4b7a-9c3e-2f1a6d5e4c3b-lock-0000000042')).toBe(42);
    expect(sequenceOfName('lock-')).toBeUndefined();
  });
});

describe('an uncontended acquire on a real server', () => {
  const fx = useProxiedServer();

  it('holds at the create reply: the reply to the listing behind the create is never needed', async () => {
    await using zk = await ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 10_000 });
    const mutex = new InterProcessMutex(zk, lockPath());
    await (await mutex.acquire()).release(); // the directory exists from now on
    const events: string[] = [];
    const stop = zk.onStateChange((change) => events.push(change.event));
    // Every reply to a plain getChildren (the listing behind the create) is swallowed. A client that waited for it
    // would learn of the loss only from a later reply, after losing the connection (SUSPENDED first).
    fx.proxy.dropReplies((reply) => reply.opcode === OpCode.getChildren);
    try {
      const lease = await mutex.acquire({ timeoutMs: 10_000 });
      expect(lease.acquired).toBe(true);
      expect(events).toEqual([]);
    } finally {
      fx.proxy.dropReplies(null);
      stop();
    }
    // The next reply shows the swallowed one lost; the client reconnects, resumes its session and still holds.
    await zk.sync('/').catch(() => undefined);
    await zk.waitConnected();
    expect(mutex.isAcquiredInThisProcess()).toBe(true);
  });
});

describe('a create that slips in between the listing and ours', () => {
  /**
   * A transport over the in-memory server's that, the first time `armed` is set and a write carries a create, sends
   * what comes before the create, runs `between` to completion, and only then sends the create and the rest.
   */
  function splitting(inner: Transport, between: { run?: () => Promise<void> }): Transport {
    return {
      async connect(endpoint, handlers, options): Promise<ByteStream> {
        const stream = await inner.connect(endpoint, handlers, options);
        let queue = Promise.resolve();
        return {
          write(chunk) {
            const run = between.run;
            const at = run === undefined ? -1 : offsetOfOpcode(chunk, OpCode.create2);
            if (run === undefined || at < 0) {
              queue = queue.then(() => stream.write(chunk));
              return;
            }
            between.run = undefined;
            const head = chunk.slice(0, at);
            const tail = chunk.slice(at);
            queue = queue.then(async () => {
              stream.write(head);
              await run();
              stream.write(tail);
            });
          },
          close: () => void queue.then(() => stream.close()),
        };
      },
    };
  }

  it('is seen: the listing behind the create decides, and the mutex is not held while that node is', async () => {
    await using server = new InMemoryZooKeeper();
    await using other = await ZooKeeperClient.connect(server.connectString, { transport: server.transport });
    const between: { run?: () => Promise<void> } = {};
    await using zk = await ZooKeeperClient.connect(server.connectString, { transport: splitting(server.transport, between) });
    const path = lockPath();
    const mutex = new InterProcessMutex(zk, path);
    await (await mutex.acquire()).release();
    // After our listing was sent, before our create: another session's lock node, ahead of ours.
    let slipped = '';
    between.run = async () => {
      await other.sync('/'); // our listing has been answered: it is queued ahead of this on the server
      slipped = await other.create(`${path}/_c_00000000-0000-0000-0000-000000000000-lock-`, null, { mode: 'ephemeral-sequential' });
    };
    const attempt = await mutex.acquire({ timeoutMs: 0 });
    expect(slipped).not.toBe('');
    expect(attempt.acquired).toBe(false);
    await other.delete(slipped);
    const lease = await mutex.acquire({ timeoutMs: 10_000 });
    expect(lease.acquired).toBe(true);
  });
});

/** The offset of the first frame in `chunk` whose request header has `opcode`, or -1. */
function offsetOfOpcode(chunk: Uint8Array, opcode: number): number {
  const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  for (let off = 0; off + 12 <= chunk.length; off += 4 + view.getInt32(off)) if (view.getInt32(off + 8) === opcode) return off;
  return -1;
}
