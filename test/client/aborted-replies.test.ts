/**
 * A call aborted after its request was written: the caller gets ABORTED at once, but the server still runs the
 * request, so the reply's bookkeeping must still happen when it arrives — or the client's view of its watches
 * drifts from the server's. The proxy holds the reply until the abort has happened.
 */

import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import type { WatchEvent } from '../../src/session/watches.js';
import { useSharedServerProxy } from '../harness/shared-server-proxy.js';
import { codeOf, uniquePath } from './helpers.js';
import { describeFrames } from '../../src/session/describe-frames.js';

const fx = useSharedServerProxy();

/** A client through the proxy, and a promise per op name that resolves when a request of that op is written. */
async function connect(): Promise<{ zk: ZooKeeperClient; written(op: string): Promise<void> }> {
  const waiting = new Map<string, () => void>();
  const zk = await ZooKeeperClient.connect(fx.proxy.connectString, {
    sessionTimeoutMs: 10_000,
    onFrame: describeFrames((f) => {
      if (f.dir === 'c2s' && f.frame.op !== undefined) waiting.get(f.frame.op)?.();
    }),
  });
  return { zk, written: (op) => new Promise<void>((resolve) => waiting.set(op, resolve)) };
}

describe('a reply that arrives after its call was aborted', () => {
  it('removeWatches aborted after sending still removes the local watchers the server removed', async () => {
    const { zk, written } = await connect();
    await using _ = zk;
    const path = uniquePath();
    await zk.create(path);
    const { watch } = await zk.getData(path, { watch: true });
    let event: WatchEvent | undefined;
    void watch.then((e) => (event = e));

    fx.proxy.pause();
    const ac = new AbortController();
    const sent = written('removeWatches');
    const removing = zk.removeWatches(path, 'data', { signal: ac.signal });
    await sent;
    ac.abort();
    expect(await codeOf(removing)).toBe('ABORTED');
    fx.proxy.resume();
    // The next reply comes after removeWatches's on the same connection: by then it has been handled.
    await zk.exists(path);
    await new Promise((r) => setImmediate(r));
    expect(event?.type).toBe('DataWatchRemoved');
    expect(await zk.checkWatches(path, 'data')).toBe(false);
  });

  it('addWatch aborted after sending leaves no watch on the server that nobody owns', async () => {
    const { zk, written } = await connect();
    await using _ = zk;
    const path = uniquePath();
    await zk.create(path);

    fx.proxy.pause();
    const ac = new AbortController();
    const sent = written('addWatch');
    const adding = zk.addWatch(path, { signal: ac.signal });
    await sent;
    ac.abort();
    expect(await codeOf(adding)).toBe('ABORTED');
    fx.proxy.resume();
    // Once a later reply is in, the addWatch reply has been read; the abandoned handle's removal was queued then,
    // so it reaches the server ahead of this check.
    await zk.exists(path);
    expect(await zk.checkWatches(path, 'any')).toBe(false);
  });

  it('a watched read aborted after sending leaves no local watcher behind', async () => {
    const { zk, written } = await connect();
    await using _ = zk;
    const path = uniquePath();
    await zk.create(path);
    const persistent = await zk.addWatch(path);

    fx.proxy.pause();
    const ac = new AbortController();
    const sent = written('getData');
    const reading = zk.getData(path, { watch: true, signal: ac.signal });
    await sent;
    ac.abort();
    expect(await codeOf(reading)).toBe('ABORTED');
    fx.proxy.resume();
    await zk.exists(path);
    // Closing the persistent handle removes the path's server watches only when no local watcher is left on it:
    // an orphaned one-shot watcher from the aborted read would keep every watch on the path on the server.
    await persistent.close();
    expect(await zk.checkWatches(path, 'any')).toBe(false);
  });
});
