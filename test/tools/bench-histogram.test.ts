/** LatencyHistogram (the open-loop mode's bounded histogram) against an exact sorted-array reference. */

import { describe, expect, it } from 'vitest';
import { LatencyHistogram } from '../../src/tools/shared/histogram.js';
import { LatencyRecorder } from '../../src/tools/bench/recorder.js';

/** A deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Latency-like samples: a log-normal body around 400 µs and a tail out to ~50 ms. */
function samples(n: number, seed: number): number[] {
  const r = random(seed);
  return Array.from({ length: n }, () => (r() < 0.01 ? 5000 + r() * 45_000 : 400 * Math.exp((r() + r() + r() - 1.5) * 1.2)));
}

describe('LatencyHistogram', () => {
  it('its bucket count is fixed by the precision, whatever and however much is recorded', () => {
    const h = new LatencyHistogram(0.01);
    const before = h.bucketCount;
    expect(before).toBeGreaterThan(100);
    expect(before).toBeLessThan(5000);
    for (const v of samples(200_000, 1)) h.record(v);
    for (const v of [0, -3, Number.NaN, 0.2, 1e9, 1e12]) h.record(v);
    expect(h.bucketCount).toBe(before);
    // A negative or NaN sample is no latency and is not counted (it would make the minimum or the mean meaningless).
    expect(h.count).toBe(200_004);
    expect(h.bins().reduce((s, b) => s + b.count, 0)).toBe(200_004);
    expect(h.bins().length).toBeLessThanOrEqual(before);
    expect(new LatencyHistogram(0.01).bucketCount).toBe(before);
    expect(new LatencyHistogram(0.001).bucketCount).toBeGreaterThan(before);
  });

  it.each([0.01, 0.001])('percentiles are within the precision (%s) of the exact nearest-rank ones', (precision) => {
    for (const seed of [2, 3, 4]) {
      const values = samples(20_000, seed);
      const h = new LatencyHistogram(precision);
      const exact = new LatencyRecorder();
      for (const v of values) {
        h.record(v);
        exact.record(v);
      }
      for (const p of [0, 1, 10, 50, 90, 99, 99.9, 99.99, 100]) {
        const want = exact.percentile(p);
        const got = h.percentile(p);
        expect(Math.abs(got - want) / want, `p${p} seed ${seed}: ${got} vs ${want}`).toBeLessThanOrEqual(precision);
      }
      const s = h.summary();
      const e = exact.summary();
      expect([s.count, s.min, s.max]).toStrictEqual([e.count, e.min, e.max]);
      expect(s.mean).toBeCloseTo(e.mean, 6);
    }
  });

  it('merging two histograms equals recording everything into one', () => {
    const a = new LatencyHistogram();
    const b = new LatencyHistogram();
    const all = new LatencyHistogram();
    samples(5000, 5).forEach((v, i) => {
      (i % 2 === 0 ? a : b).record(v);
      all.record(v);
    });
    a.merge(b);
    const { mean, ...rest } = a.summary();
    const { mean: allMean, ...allRest } = all.summary();
    expect(rest).toStrictEqual(allRest);
    expect(mean).toBeCloseTo(allMean, 6); // the sums differ only in the order of addition
    expect(a.bins()).toStrictEqual(all.bins());
    expect(() => a.merge(new LatencyHistogram(0.02))).toThrow(RangeError);
  });

  it('empty gives zeros; one sample is every percentile', () => {
    expect(new LatencyHistogram().summary()).toMatchObject({ count: 0, p50: 0, p99: 0, max: 0, min: 0, mean: 0 });
    const one = new LatencyHistogram();
    one.record(523.4);
    expect(one.summary()).toMatchObject({ count: 1, p50: 523.4, p999: 523.4, max: 523.4, min: 523.4 });
  });
});

describe('LatencyHistogram serialize / deserialize', () => {
  it('a round trip gives the same histogram, in a form far under the 1 MB of a znode', () => {
    const h = new LatencyHistogram();
    for (const v of samples(100_000, 6)) h.record(v);
    for (const v of [0, 1e9]) h.record(v); // the below- and above-range buckets travel too
    const s = h.serialize();
    const text = JSON.stringify(s);
    expect(text.length).toBeLessThan(20_000);
    const back = LatencyHistogram.deserialize(JSON.parse(text) as typeof s);
    expect(back.summary()).toStrictEqual(h.summary());
    expect(back.bins()).toStrictEqual(h.bins());
    expect(back.precision).toBe(h.precision);
    // and it merges like the original
    const twice = LatencyHistogram.deserialize(s);
    twice.merge(back);
    expect(twice.count).toBe(2 * h.count);
  });

  it('empty and other precisions round-trip; a damaged form is a RangeError', () => {
    expect(LatencyHistogram.deserialize(new LatencyHistogram().serialize()).summary()).toStrictEqual(new LatencyHistogram().summary());
    const coarse = new LatencyHistogram(0.05);
    coarse.record(250);
    const back = LatencyHistogram.deserialize(coarse.serialize());
    expect([back.precision, back.count, back.percentile(50)]).toStrictEqual([0.05, 1, 250]);
    const good = coarse.serialize();
    expect(() => LatencyHistogram.deserialize({ ...good, count: 2 })).toThrow(RangeError);
    expect(() => LatencyHistogram.deserialize({ ...good, runs: [1e6, 1] })).toThrow(/past the last/);
    expect(() => LatencyHistogram.deserialize({ ...good, runs: [0, -1] })).toThrow(RangeError);
    expect(() => LatencyHistogram.deserialize({ ...good, runs: [3] })).toThrow(RangeError);
  });
});
