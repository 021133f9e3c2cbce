/**
 * Host names resolved before every connect attempt (the `resolver` option): with an in-memory transport and a
 * manual clock, what the transport is asked to dial, that the name is asked again on each attempt, and that a
 * resolver that fails, answers nonsense or never answers only costs that attempt.
 */

import { describe, expect, it } from 'vitest';
import { ZooKeeperClient } from '../../src/client.js';
import { retryForever } from '../../src/session/retry-policy.js';
import type { Resolver } from '../../src/session/resolve.js';
import { ManualClock } from '../harness/manual-clock.js';
import { MemoryTransport } from '../harness/memory-transport.js';
import { settle } from './fakes.js';

function setup(resolver: Resolver, hosts = 'zk.example:2181') {
  const transport = new MemoryTransport();
  transport.refuse = true;
  const clock = new ManualClock();
  const zk = new ZooKeeperClient(hosts, { transport, clock, resolver, sessionTimeoutMs: 3000, reconnect: retryForever(0), random: () => 0.6, trackEnsemble: false });
  return { transport, clock, zk };
}

async function shut(zk: ZooKeeperClient, clock: ManualClock): Promise<void> {
  const closing = zk.close();
  await settle();
  clock.advance(5000);
  await closing;
}

describe('resolver', () => {
  it('dials one of the addresses the resolver gives, keeping the name, and asks again on every attempt', async () => {
    const asked: string[] = [];
    let answer = ['10.0.0.7', '10.0.0.8'];
    const { transport, clock, zk } = setup((host) => {
      asked.push(host);
      return answer;
    });
    await settle();
    expect(asked).toEqual(['zk.example']);
    expect(transport.attempts).toEqual([{ host: 'zk.example', port: 2181, address: '10.0.0.8' }]); // random 0.6 of two
    // The attempt was refused; after the pause that follows a failed pass, the name is asked again.
    answer = ['10.0.0.9'];
    clock.advance(10);
    await settle();
    expect(asked).toEqual(['zk.example', 'zk.example']);
    expect(transport.attempts[1]).toEqual({ host: 'zk.example', port: 2181, address: '10.0.0.9' });
    await shut(zk, clock);
  });

  it('an empty answer dials the name as given', async () => {
    const { transport, clock, zk } = setup(() => []);
    await settle();
    expect(transport.attempts[0]).toEqual({ host: 'zk.example', port: 2181 });
    await shut(zk, clock);
  });

  it('a failing or nonsensical resolver fails that attempt, with the reason, and the client goes on trying', async () => {
    const cases: [Resolver, RegExp][] = [
      [
        () => {
          throw new Error('NXDOMAIN zk.example');
        },
        /cannot resolve zk\.example: NXDOMAIN/,
      ],
      [() => Promise.reject(new Error('SERVFAIL')), /cannot resolve zk\.example: SERVFAIL/],
      [() => [42] as unknown as string[], /the resolver gave \[42\] for zk\.example/],
    ];
    for (const [resolver, reason] of cases) {
      let asked = 0;
      const counting: Resolver = (host, options) => {
        asked++;
        return resolver(host, options);
      };
      const transport = new MemoryTransport();
      const clock = new ManualClock();
      const connecting = ZooKeeperClient.connect('zk.example:2181', { transport, clock, resolver: counting, connectTimeoutMs: 100, reconnect: retryForever(0), trackEnsemble: false });
      await settle();
      clock.advance(10);
      await settle();
      expect(asked).toBe(2); // tried again after the failed attempt
      clock.advance(100);
      const err = await connecting.then(() => undefined, (e: unknown) => e as Error);
      expect(err?.message).toMatch(reason); // connect's TIMEOUT names the last failure
      expect(transport.attempts).toEqual([]);
    }
  });

  it('a resolver that never answers is bounded by the connect timeout, and its signal is aborted', async () => {
    const signals: AbortSignal[] = [];
    const { transport, clock, zk } = setup((_host, { signal }) => {
      signals.push(signal);
      return new Promise<never>(() => {});
    }, 'a.example:1,b.example:2');
    await settle();
    expect(signals).toHaveLength(1);
    clock.advance(1500); // T/n with 2 hosts
    await settle();
    expect(signals[0]?.aborted).toBe(true);
    expect(signals).toHaveLength(2);
    expect(transport.attempts).toEqual([]);
    await shut(zk, clock);
  });

  it("uses the transport's own resolver by default, and none when it has none (a name it dials itself)", async () => {
    const plain = new MemoryTransport();
    plain.refuse = true;
    const clock = new ManualClock();
    const zk = new ZooKeeperClient('in-memory-zookeeper-1:2181', { transport: plain, clock, trackEnsemble: false });
    await settle();
    expect(plain.attempts[0]).toEqual({ host: 'in-memory-zookeeper-1', port: 2181 });
    await shut(zk, clock);
    const own = Object.assign(new MemoryTransport(), { resolver: () => ['10.1.1.1'] });
    own.refuse = true;
    const other = new ZooKeeperClient('zk.example:2181', { transport: own, clock, trackEnsemble: false });
    await settle();
    expect(own.attempts[0]).toEqual({ host: 'zk.example', port: 2181, address: '10.1.1.1' });
    await shut(other, clock);
  });

  it('refuses a resolver that is not a function', () => {
    expect(() => new ZooKeeperClient('a:1', { transport: new MemoryTransport(), resolver: 'dns' as unknown as Resolver })).toThrow(/resolver must be a function/);
  });
});
