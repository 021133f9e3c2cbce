/** The pure parts of a multi-process bench run: shares of sessions and acquisitions, and timelines that add up. */

import { describe, expect, it } from 'vitest';
import { BinnedTimeline } from '../../src/tools/bench/workers/binned-timeline.js';
import { workerShare } from '../../src/tools/bench/workers/run-layout.js';

describe('workerShare', () => {
  it.each([
    [4, 2],
    [5, 2],
    [7, 3],
    [3, 3],
    [10, 4],
  ])('%i sessions over %i workers: each at least one, and sessions and acquisitions add up exactly', (clients, workers) => {
    const sessions = Array.from({ length: workers }, (_, slot) => workerShare(clients, clients, workers, slot));
    expect(sessions.reduce((a, b) => a + b, 0)).toBe(clients);
    for (const s of sessions) expect(s).toBeGreaterThanOrEqual(1);
    for (const total of [1, 59, 1000]) {
      const parts = Array.from({ length: workers }, (_, slot) => workerShare(total, clients, workers, slot));
      expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
    }
  });
});

describe('BinnedTimeline', () => {
  it('workers binned at different widths merge into one timeline whose counts add up, through a serialise round trip', () => {
    const a = { at: [5, 50, 150, 950, 1999], lat: [100, 200, 300, 400, 500] };
    const b = { at: Array.from({ length: 300 }, (_, i) => i * 10), lat: Array.from({ length: 300 }, () => 1000) };
    const ta = BinnedTimeline.of(a.at, a.lat, 100);
    const tb = BinnedTimeline.of(b.at, b.lat, 10); // 300 intervals of 10 ms: coarsened to at most MAX_INTERVALS
    expect(tb.binMs).toBe(20);
    const merged = BinnedTimeline.merge([BinnedTimeline.deserialize(ta.serialize()), BinnedTimeline.deserialize(tb.serialize())], 3000, 50, 100);
    expect(merged.counts.reduce((x, y) => x + y, 0)).toBe(305);
    expect(merged.latency!.p50).toHaveLength(merged.counts.length);
    expect(merged.binMs % 100).toBe(0);
    merged.counts.forEach((c, i) => {
      if (c === 0) expect(merged.latency!.max[i]).toBe(0);
      else expect(merged.latency!.p50[i]!).toBeLessThanOrEqual(merged.latency!.max[i]!);
    });
    // the greatest latency is exact (the histograms keep their max)
    expect(Math.max(...merged.latency!.max)).toBe(1000);
  });
});
