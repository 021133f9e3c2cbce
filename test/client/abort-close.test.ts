import { describe, expect, it } from 'vitest';
import { codeOf, connectShared, errorOf, uniquePath } from './helpers.js';
import { describeFrames } from '../../src/session/describe-frames.js';

describe('AbortSignal and closed clients', () => {
  it('an already aborted signal rejects ABORTED and sends nothing', async () => {
    const sent: string[] = [];
    await using zk = await connectShared({ onFrame: describeFrames((f) => f.dir === 'c2s' && sent.push(f.frame.op ?? f.frame.kind)) });
    const before = sent.length;
    const err = await errorOf(zk.create(uniquePath(), null, { signal: AbortSignal.abort() }));
    expect(err.code).toBe('ABORTED');
    expect(err.op).toBe('create');
    await new Promise((r) => setTimeout(r, 20));
    expect(sent.length).toBe(before);
  });

  it('aborting in the same tick takes the request back before it is written', async () => {
    const sent: string[] = [];
    await using zk = await connectShared({ onFrame: describeFrames((f) => f.dir === 'c2s' && sent.push(f.frame.op ?? f.frame.kind)) });
    const path = uniquePath();
    const ac = new AbortController();
    const p = zk.create(path, null, { signal: ac.signal });
    ac.abort();
    expect(await codeOf(p)).toBe('ABORTED');
    expect(await zk.exists(path)).toBeNull();
    expect(sent.filter((op) => op === 'create')).toEqual([]);
  });

  it('aborting after sending rejects at once; the reply is still consumed and later calls work', async () => {
    await using zk = await connectShared();
    const path = uniquePath();
    const ac = new AbortController();
    const p = zk.create(path, null, { signal: ac.signal });
    await new Promise<void>((r) => queueMicrotask(r));
    await Promise.resolve();
    ac.abort();
    expect(await codeOf(p)).toBe('ABORTED');
    // The create still happened on the server; the session keeps going in order.
    expect(await zk.exists(path)).not.toBeNull();
    await zk.delete(path);
  });

  it('a closed client rejects every call with CLOSED and close() is idempotent', async () => {
    const zk = await connectShared();
    await zk.close();
    expect(zk.state).toBe('closed');
    expect(await codeOf(zk.getData('/'))).toBe('CLOSED');
    expect(await codeOf(zk.addAuth('digest', 'a:b'))).toBe('CLOSED');
    await zk.close();
  });

  it('requests issued before close() still get their replies', async () => {
    const zk = await connectShared();
    const path = uniquePath();
    const created = zk.create(path, null, { mode: 'ephemeral' });
    const closing = zk.close();
    const late = codeOf(zk.getData('/'));
    expect(await created).toBe(path);
    expect(await late).toBe('CLOSED');
    await closing;
  });
});
