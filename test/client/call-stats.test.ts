/**
 * The histogram behind `client.stats()`, without a server: nearest-rank percentiles within an eighth of a doubling
 * (9 %) above the exact sample and never above the exact max, counts and error codes per op, one-snapshot copies.
 */

import { describe, expect, it } from 'vitest';
import { callStats } from '../../src/client/call-stats.js';

/** The exact nearest-rank percentile of `samples`. */
function exact(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
}

describe('callStats', () => {
  it.each([
    ['uniform 0.1–10 ms', Array.from({ length: 1000 }, (_, i) => 0.1 + (i * 9.9) / 999)],
    ['a long tail', [...Array.from({ length: 990 }, () => 0.25), ...Array.from({ length: 10 }, (_, i) => 40 + i)]],
    ['one sample', [3.3]],
    ['sub-microsecond', [0.0004, 0.0005, 0.002]],
  ])('gives percentiles within 9 %% above the exact ones: %s', (_name, samples) => {
    const stats = callStats();
    for (const ms of samples) stats.record('getData', ms, undefined, 0, 0);
    const figures = stats.snapshot(0, 0).ops['getData']!;
    expect(figures.count).toBe(samples.length);
    expect(figures.max).toBe(Math.max(...samples));
    for (const [q, got] of [[0.5, figures.p50], [0.9, figures.p90], [0.99, figures.p99]] as const) {
      const want = exact(samples, q);
      // Below 1 µs every sample shares the first bucket, answered by 1 µs (or the max, if lower).
      const bound = Math.max(want * 1.0906, Math.min(0.001, figures.max));
      expect(got, `p${q * 100}`).toBeGreaterThanOrEqual(Math.min(want, figures.max));
      expect(got, `p${q * 100}`).toBeLessThanOrEqual(bound);
    }
  });

  it('counts failures per op and by code, bytes and reconnects; a snapshot is a copy', () => {
    const stats = callStats();
    stats.record('delete', 1, 'NONODE', 30, 16);
    stats.record('delete', 1, undefined, 30, 16);
    stats.record('setData', 2, 'BADVERSION', 40, 16);
    stats.record('getData', 2, 'NONODE', 25, 16);
    stats.reconnected();
    const first = stats.snapshot(2, 5);
    expect(first).toMatchObject({ errors: { NONODE: 2, BADVERSION: 1 }, bytesOut: 125, bytesIn: 64, reconnects: 1, renewals: 2, watches: 5 });
    expect(first.ops['delete']).toMatchObject({ count: 2, errors: 1 });
    stats.record('delete', 1, 'NONODE', 30, 16);
    expect(first.errors).toEqual({ NONODE: 2, BADVERSION: 1 });
    expect(stats.snapshot(0, 0).errors).toEqual({ NONODE: 3, BADVERSION: 1 });
  });
});
