import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/node.js';
import { LeaderSelector, type Leadership } from '../../src/recipes/leader/leader-selector.js';
import { childrenOf, codeOf, eventually, lockPath, useClients, useProxiedServer, UUID } from './helpers.js';

/** A leadership the test ends by hand: takeLeadership waits until `end()` or its signal aborts. */
function gate(): { take: (l: Leadership) => Promise<void>; end: () => void; current: Leadership | undefined; terms: number } {
  let finish: () => void = () => undefined;
  const g = {
    current: undefined as Leadership | undefined,
    terms: 0,
    end: () => finish(),
    take: (l: Leadership) =>
      new Promise<void>((resolve) => {
        g.current = l;
        g.terms++;
        finish = () => {
          g.current = undefined;
          resolve();
        };
        if (l.signal.aborted) finish();
        else l.signal.addEventListener('abort', () => finish(), { once: true });
      }),
  };
  return g;
}

describe('LeaderSelector', () => {
  const z = useClients(3);

  it('leads one at a time, in queue order (fair), on Curator-named mutex nodes holding the ids', async () => {
    const path = lockPath('election');
    const order: string[] = [];
    let leading = 0;
    let overlaps = 0;
    const gates = [gate(), gate(), gate()];
    const selectors = ['a', 'b', 'c'].map(
      (id, i) =>
        new LeaderSelector(
          z(i),
          path,
          async (l) => {
            if (++leading > 1) overlaps++;
            order.push(id);
            await (gates[i] as ReturnType<typeof gate>).take(l);
            leading--;
          },
          { id },
        ),
    );
    for (const [i, s] of selectors.entries()) {
      s.start();
      await eventually(async () => (await childrenOf(z(0), path)).length === i + 1, 10_000, 'queued');
    }
    await eventually(() => order.length === 1, 10_000, 'a leads');
    const children = await childrenOf(z(0), path);
    expect(children.every((c) => new RegExp(`^_c_${UUID}-lock-\\d{10}$`).test(c))).toBe(true);
    expect(await selectors[2]?.getParticipants()).toEqual([
      { id: 'a', isLeader: true },
      { id: 'b', isLeader: false },
      { id: 'c', isLeader: false },
    ]);
    expect(selectors[0]?.hasLeadership()).toBe(true);
    expect(gates[0]?.current?.fencingToken).toBeTypeOf('bigint');
    gates[0]?.end();
    await eventually(() => order.length === 2, 10_000, 'b leads');
    gates[1]?.end();
    await eventually(() => order.length === 3, 10_000, 'c leads');
    gates[2]?.end();
    await eventually(async () => (await childrenOf(z(0), path)).length === 0, 10_000, 'all released');
    expect(order).toEqual(['a', 'b', 'c']);
    expect(overlaps).toBe(0);
    for (const s of selectors) await s.close();
  });

  it('autoRequeue: contenders take turns; fencing tokens only grow; close leaves no node', async () => {
    const path = lockPath('election');
    const tokens: bigint[] = [];
    const turns: string[] = [];
    const make = (i: number, id: string): LeaderSelector =>
      new LeaderSelector(
        z(i),
        path,
        async (l) => {
          tokens.push(l.fencingToken);
          turns.push(id);
          await new Promise((r) => setTimeout(r, 5));
        },
        { id, autoRequeue: true },
      );
    const a = make(0, 'a');
    const b = make(1, 'b');
    a.start();
    b.start();
    await eventually(() => turns.length >= 8, 20_000, 'turns');
    await Promise.all([a.close(), b.close()]);
    expect(tokens.every((t, i) => i === 0 || t > (tokens[i - 1] as bigint))).toBe(true);
    expect(turns.filter((t) => t === 'a').length).toBeGreaterThanOrEqual(3);
    expect(turns.filter((t) => t === 'b').length).toBeGreaterThanOrEqual(3);
    expect(await childrenOf(z(2), path)).toEqual([]);
  });

  it('two interrupts in a row never stall autoRequeue (CURATOR-518), nor cancel a queued attempt', async () => {
    const path = lockPath('election');
    const ga = gate();
    const gb = gate();
    await using a = new LeaderSelector(z(0), path, ga.take, { id: 'a', autoRequeue: true });
    await using b = new LeaderSelector(z(1), path, gb.take, { id: 'b', autoRequeue: true });
    a.start();
    await eventually(() => ga.terms === 1, 10_000, 'a leads');
    b.start();
    await eventually(async () => (await childrenOf(z(2), path)).length === 2, 10_000, 'b queued');
    b.interruptLeadership(); // not leading: nothing to interrupt, b stays queued
    b.interruptLeadership();
    const signal = ga.current?.signal as AbortSignal;
    a.interruptLeadership();
    a.interruptLeadership();
    expect(signal.reason).toMatchObject({ code: 'ABORTED' });
    await eventually(() => gb.terms === 1, 10_000, 'b leads');
    b.interruptLeadership();
    b.interruptLeadership();
    await eventually(() => ga.terms === 2, 10_000, 'a leads again');
    a.interruptLeadership();
    await eventually(() => gb.terms === 2, 10_000, 'b leads again');
  });

  it('close while leading aborts the signal with CLOSED and resolves once takeLeadership returned; misuse is typed', async () => {
    const path = lockPath('election');
    const g = gate();
    const selector = new LeaderSelector(z(0), path, g.take);
    expect(() => selector.requeue()).toThrow(expect.objectContaining({ code: 'ILLEGAL_STATE' }));
    expect(await codeOf(selector.close())).toBe('ILLEGAL_STATE');
    selector.start();
    await expect(selector.start()).rejects.toMatchObject({ code: 'ILLEGAL_STATE' });
    await eventually(() => g.current !== undefined, 10_000, 'leads');
    expect(selector.requeue()).toBe(false);
    const signal = (g.current as Leadership).signal;
    await selector.close();
    expect(signal.reason).toMatchObject({ code: 'CLOSED' });
    expect(g.current).toBeUndefined();
    expect(await childrenOf(z(1), path)).toEqual([]);
    expect(await codeOf(selector.close())).toBe('ILLEGAL_STATE');
    expect(() => new LeaderSelector(z(0), path, 'x' as never)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));

    // closed while queued: the waiting node goes too
    const holder = gate();
    await using first = new LeaderSelector(z(0), path, holder.take);
    first.start();
    await eventually(() => holder.current !== undefined, 10_000, 'first leads');
    const queued = new LeaderSelector(z(1), path, gate().take);
    queued.start();
    await eventually(async () => (await childrenOf(z(2), path)).length === 2, 10_000, 'queued');
    await queued.close();
    expect((await childrenOf(z(2), path)).length).toBe(1);
  });
});

describe('LeaderSelector when the connection or the session fails', () => {
  const fx = useProxiedServer();
  const viaProxy = (): Promise<ZooKeeperClient> => ZooKeeperClient.connect(fx.proxy.connectString, { sessionTimeoutMs: 4000 });

  it('the leader hears it lost (CURATOR-220): on SUSPENDED by default, only on session end with "lost"', async () => {
    fx.proxy.pass();
    const path = lockPath('election');
    await using clientA = await viaProxy();
    await using clientB = await viaProxy();
    const ga = gate();
    const gb = gate();
    await using a = new LeaderSelector(clientA, path, ga.take);
    await using b = new LeaderSelector(clientB, path, gb.take, { leadershipLost: 'lost' });
    a.start();
    await eventually(() => ga.current !== undefined, 10_000, 'a leads');
    const signalA = (ga.current as Leadership).signal;
    await a.close();
    b.start();
    await eventually(() => gb.current !== undefined, 10_000, 'b leads');
    const signalB = (gb.current as Leadership).signal;
    expect(signalA.reason).toMatchObject({ code: 'CLOSED' });

    fx.proxy.pause();
    await eventually(() => clientB.state !== 'connected', 15_000, 'b disconnected');
    expect(signalB.aborted).toBe(false); // "lost": a suspension alone does not end it
    await eventually(async () => (await childrenOf(fx.direct, path)).length === 0, 15_000, 'the server expired b');
    fx.proxy.pass();
    await eventually(() => signalB.aborted, 15_000, 'b hears it lost');
    expect(signalB.reason).toMatchObject({ code: 'SESSIONEXPIRED' });
  });

  it('with the default policy a suspension ends leadership at once, and the same session leads again', async () => {
    fx.proxy.pass();
    const path = lockPath('election');
    await using client = await viaProxy();
    const g = gate();
    await using s = new LeaderSelector(client, path, g.take, { autoRequeue: true });
    s.start();
    await eventually(() => g.terms === 1, 10_000, 'leads');
    const signal = (g.current as Leadership).signal;
    fx.proxy.resetAll();
    await eventually(() => signal.aborted, 15_000, 'suspended');
    expect(signal.reason).toMatchObject({ code: 'CONNECTIONLOSS' });
    await eventually(() => g.terms === 2, 15_000, 'leads again');
    expect(client.state).toBe('connected');
  });

  it('requeues after session expiry on the client\'s new session (autoRequeue)', async () => {
    fx.proxy.pass();
    const path = lockPath('election');
    await using client = await viaProxy();
    const g = gate();
    await using s = new LeaderSelector(client, path, g.take, { autoRequeue: true });
    s.start();
    await eventually(() => g.terms === 1, 10_000, 'leads');
    const first = client.sessionId;
    fx.proxy.pause();
    await eventually(async () => (await childrenOf(fx.direct, path)).length === 0, 15_000, 'the server expired the session');
    fx.proxy.pass();
    await eventually(() => g.terms === 2, 20_000, 'leads again on a new session');
    expect(client.sessionId).not.toBe(first);
    expect(await s.getParticipants()).toEqual([{ id: '', isLeader: true }]);
  });
});
