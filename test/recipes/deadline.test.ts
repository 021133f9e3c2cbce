import { describe, expect, it } from 'vitest';
import { clientError } from '../../src/errors.js';
import { Deadline, eventOrDeadline } from '../../src/recipes/common/deadline.js';
import { ManualClock } from '../harness/manual-clock.js';

/** The one deadline type every lock acquire and every recipe wait starts with (no server: a manual clock drives it). */
describe('Deadline', () => {
  const aborting = (err = clientError('ABORTED', 'aborted while awaiting the reply')) => err;

  it('without a timeout or a signal there is no signal at all (the uncontended hot path pays for nothing)', () => {
    const clock = new ManualClock();
    using d = new Deadline({}, 'acquire', '/a', clock);
    expect(d.signal).toBeUndefined();
    expect(d.tryOnce).toBe(false);
    expect(clock.pending).toBe(0);
  });

  it('with only the caller’s signal, it is that signal; Infinity arms no timer', () => {
    const clock = new ManualClock();
    const caller = new AbortController();
    using d = new Deadline({ signal: caller.signal, timeoutMs: Infinity }, 'acquire', '/a', clock);
    expect(d.signal).toBe(caller.signal);
    expect(clock.pending).toBe(0);
  });

  it('timeoutMs: 0 is one try: no timer, tryOnce', () => {
    const clock = new ManualClock();
    using d = new Deadline({ timeoutMs: 0 }, 'acquire', '/a', clock);
    expect(d.tryOnce).toBe(true);
    expect(d.signal).toBeUndefined();
    expect(clock.pending).toBe(0);
  });

  it('the timeout aborts the one signal with TIMEOUT, and a step it stopped settles as "timeout"', () => {
    const clock = new ManualClock();
    using d = new Deadline({ timeoutMs: 500 }, 'acquire', '/a', clock);
    expect(d.signal?.aborted).toBe(false);
    clock.advance(499);
    expect(d.signal?.aborted).toBe(false);
    clock.advance(1);
    expect(d.timedOut).toBe(true);
    expect(d.signal?.reason).toMatchObject({ code: 'TIMEOUT', op: 'acquire', path: '/a' });
    expect(d.settle(aborting())).toBe('timeout');
    expect(d.settle(d.signal?.reason)).toBe('timeout');
    // an error that is not the stop itself is reported as it is
    expect(() => d.settle(clientError('NOAUTH'))).toThrow(expect.objectContaining({ code: 'NOAUTH' }));
  });

  it('the caller’s abort settles as ABORTED (or the caller’s own ZooKeeperError reason), never as a timeout', () => {
    const clock = new ManualClock();
    const caller = new AbortController();
    using d = new Deadline({ signal: caller.signal, timeoutMs: 500 }, 'acquire', '/a', clock);
    caller.abort('stop');
    expect(d.signal?.aborted).toBe(true);
    expect(d.timedOut).toBe(false);
    expect(() => d.settle(aborting())).toThrow(expect.objectContaining({ code: 'ABORTED', path: '/a', cause: 'stop' }));
    const own = new AbortController();
    const reason = clientError('SESSIONEXPIRED', 'shutting down');
    own.abort(reason);
    using e = new Deadline({ signal: own.signal, timeoutMs: 500 }, 'acquire', '/a', clock);
    expect(() => e.settle(aborting())).toThrow(reason);
  });

  it('dispose clears the timer and stops listening to the caller', () => {
    const clock = new ManualClock();
    const caller = new AbortController();
    const d = new Deadline({ signal: caller.signal, timeoutMs: 500 }, 'acquire', '/a', clock);
    expect(clock.pending).toBe(1);
    d[Symbol.dispose]();
    expect(clock.pending).toBe(0);
    caller.abort();
    expect(d.signal?.aborted).toBe(false);
  });

  it('refuses a bad timeout or signal before anything is sent', () => {
    expect(() => new Deadline({ timeoutMs: -1 }, 'acquire', '/a')).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    expect(() => new Deadline({ timeoutMs: Number.NaN }, 'acquire', '/a')).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    expect(() => new Deadline({ signal: {} as AbortSignal }, 'acquire', '/a')).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
  });

  describe('in a wait (eventOrDeadline)', () => {
    it('with no timeout and no signal, waits for the event alone', async () => {
      using d = new Deadline({}, 'wait', '/a', new ManualClock());
      expect(await eventOrDeadline(Promise.resolve(), d, 'wait')).toBe(true);
    });

    it('timeoutMs 0 is one look: false at once, without arming a timer', async () => {
      const clock = new ManualClock();
      using d = new Deadline({ timeoutMs: 0 }, 'wait', '/a', clock);
      expect(clock.nextDeadline()).toBeUndefined();
      expect(await eventOrDeadline(new Promise(() => undefined), d, 'wait')).toBe(false);
    });

    it('false when the timeout passes, ABORTED on the caller\'s abort', async () => {
      const clock = new ManualClock();
      using d = new Deadline({ timeoutMs: 50 }, 'wait', '/a', clock);
      const waiting = eventOrDeadline(new Promise(() => undefined), d, 'wait');
      clock.advance(50);
      expect(await waiting).toBe(false);
      const caller = new AbortController();
      using e = new Deadline({ signal: caller.signal }, 'wait', '/a', clock);
      const aborted = eventOrDeadline(new Promise(() => undefined), e, 'wait');
      caller.abort();
      await expect(aborted).rejects.toMatchObject({ code: 'ABORTED' });
    });
  });
});
