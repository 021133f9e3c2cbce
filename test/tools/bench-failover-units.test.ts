/**
 * The failover report's pure parts: the unavailability window from completion times, the fault options, and the
 * marker row under the sparklines, and when a run goes on past its duration. The real thing, on a real ensemble, is bench-failover.test.ts.
 */

import { describe, expect, it } from 'vitest';
import { faultMarkerRow } from '../../src/tools/bench/failover/failover-render.js';
import { parseDurationMs, parseFaultSpec } from '../../src/tools/bench/failover/fault-spec.js';
import type { FailoverReport, FaultReport } from '../../src/tools/bench/failover/report.js';
import { windowsAround } from '../../src/tools/bench/failover/window.js';
import { parseBenchArgs } from '../../src/cli/commands/bench.js';
import { FaultObserver } from '../../src/tools/bench/failover/fault-observer.js';
import type { ZooKeeperClient } from '../../src/client.js';
import type { Lease } from '../../src/index.js';

describe('windowsAround', () => {
  it('per session: from its last completion before the fault to its first after', () => {
    const { perSession } = windowsAround([[10, 20, 95, 300], [50, 400]], 100, 1000);
    expect(perSession[0]).toMatchObject({ lastBeforeMs: 95, firstAfterMs: 300, windowMs: 205, stallFromMs: 95, stallToMs: 300, recoveredAfterMs: 200 });
    expect(perSession[1]).toMatchObject({ lastBeforeMs: 50, firstAfterMs: 400, windowMs: 350, recoveredAfterMs: 300 });
  });

  it('overall: the longest stall until every session is back, not the reply that was already on its way', () => {
    // One acquisition lands 3 ms after the fault, then nothing until 700: the window is 103 → 700.
    const { overall } = windowsAround([[90, 103, 700], [95, 710]], 100, 1000);
    expect(overall).toMatchObject({ lastBeforeMs: 95, firstAfterMs: 103, stallFromMs: 103, stallToMs: 700, windowMs: 597, recoveredAfterMs: 610, atLeastMs: null });
  });

  it('a session that never acquires again leaves the window open: a lower bound up to the end of the run', () => {
    const { overall, perSession } = windowsAround([[90, 120, 130], [95]], 100, 1000);
    expect(perSession[1]).toMatchObject({ windowMs: null, firstAfterMs: null, atLeastMs: 905 });
    expect(overall).toMatchObject({ windowMs: null, recoveredAfterMs: null, atLeastMs: 870 });
  });

  it('a fault before any completion counts from the fault', () => {
    const { overall } = windowsAround([[250, 260]], 0, 1000);
    expect(overall).toMatchObject({ lastBeforeMs: null, stallFromMs: 0, stallToMs: 250, windowMs: 250 });
  });
});

describe('fault options', () => {
  it('reads AT and FOR in s, ms or bare seconds', () => {
    expect(parseDurationMs('5s', 'x')).toBe(5000);
    expect(parseDurationMs('1.5', 'x')).toBe(1500);
    expect(parseDurationMs('800ms', 'x')).toBe(800);
    expect(parseFaultSpec('pause-leader', '2s:500ms')).toStrictEqual({ kind: 'pause-leader', atMs: 2000, forMs: 500 });
    expect(parseFaultSpec('kill-leader', '3')).toStrictEqual({ kind: 'kill-leader', atMs: 3000 });
  });

  it.each([
    [['--kill-leader', '2s'], /needs --ensemble N/],
    [['--ensemble', '3', '--kill-leader', '2s:1s'], /takes only AT/],
    [['--ensemble', '3', '--pause-leader', 'soon'], /needs a time such as 5s/],
    [['--ensemble', '3', '--kill-leader', '12s'], /not within the run \(--duration 10 s\)/],
    [['--ensemble', '3', '--kill-leader', '1s', '--iterations', '100'], /give --duration, not --iterations/],
    [['--ensemble', '2'], /3 or more/],
    [['--tick-time', '500'], /--tick-time sets the tickTime of the --ensemble/],
  ])('bench lock %j is a usage error', (args, message) => {
    expect(() => parseBenchArgs(['lock', ...args], false)).toThrow(message);
  });

  it('the fault options go with bench lock only, and not with --vs curator', () => {
    expect(() => parseBenchArgs(['raw', '--ensemble', '3'], false)).toThrow(/--ensemble goes with bench lock/);
    expect(() => parseBenchArgs(['lock', '--vs', 'curator', '--ensemble', '3'], false)).toThrow(/does not apply to --vs curator/);
    expect(parseBenchArgs(['lock', '--ensemble', '5', '--tick-time', '500', '--duration', '4', '--partition-leader', '1s:2s'], false).failover).toStrictEqual({
      ensemble: 5,
      tickTime: 500,
      faults: [{ kind: 'partition-leader', atMs: 1000, forMs: 2000 }],
    });
  });
});

describe('faultMarkerRow', () => {
  it('puts ▲ in the fault’s interval and △ where it was lifted, as wide as the timeline', () => {
    const fault = { kind: 'pause-leader', atMs: 250, endedAtMs: 720 } as FaultReport;
    const marks = faultMarkerRow({ faults: [fault] } as FailoverReport, { binMs: 100, counts: new Array<number>(10).fill(1), perSec: [] });
    expect(marks).toStrictEqual({ row: '  ▲    △  ', legend: '▲ pause-leader 0.25 s △ lifted 0.72 s' });
    expect(faultMarkerRow({ faults: [] } as unknown as FailoverReport, { binMs: 100, counts: [1], perSec: [] })).toBeNull();
  });
});

describe('FaultObserver.keepRunning: a run goes on past its duration until every session is back', () => {
  const lease = { fencingToken: 1n, signal: new AbortController().signal } as unknown as Lease;
  const clients = [0, 1].map(() => ({ onStateChange: () => () => {}, connectedServer: undefined }) as unknown as ZooKeeperClient);

  it('is false without a fault, true while a session has not acquired since the last one, false once all have', () => {
    const waiting: number[] = [];
    const o = new FaultObserver({ onOvertime: (n) => waiting.push(n) });
    o.sessionsOpened(clients);
    o.contending(1000);
    o.acquired(0, 1100, lease, 'exclusive');
    o.acquired(1, 1150, lease, 'exclusive');
    expect(o.keepRunning(4000)).toBe(false);
    o.mark('mark', 'SIGUSR2', { atMs: 1200 });
    o.acquired(0, 1500, lease, 'exclusive');
    expect(o.keepRunning(4000)).toBe(true);
    expect(waiting).toEqual([1]);
    o.acquired(1, 4100, lease, 'exclusive');
    expect(o.keepRunning(4200)).toBe(false);
  });

  it('lets go after maxOvertimeMs from the fault, so an ensemble that never comes back still ends the run', () => {
    const o = new FaultObserver({ maxOvertimeMs: 5000 });
    o.sessionsOpened(clients);
    o.contending(0);
    o.mark('mark', 'SIGUSR2', { atMs: 1000 });
    expect(o.keepRunning(5999)).toBe(true);
    expect(o.keepRunning(6001)).toBe(false);
  });
});
