/** The bench engine's pure pieces on known inputs: percentiles, histogram, timeline, the exclusion check, the SVG. */

import { describe, expect, it } from 'vitest';
import { ExclusionChecker } from '../../src/tools/bench/exclusion.js';
import { logHistogram, renderHistogram } from '../../src/tools/shared/histogram.js';
import type { LockReport } from '../../src/tools/bench/lock-bench.js';
import { LatencyRecorder, roundedSummary } from '../../src/tools/bench/recorder.js';
import { renderLockSvg } from '../../src/tools/bench/svg.js';
import { xmlEscape } from '../../src/tools/shared/svg.js';
import { binTimeline, sparkline } from '../../src/tools/bench/timeline.js';
import { checkXml } from './bench-xml.js';

function recorderOf(values: number[]): LatencyRecorder {
  const r = new LatencyRecorder();
  for (const v of values) r.record(v);
  return r;
}

describe('LatencyRecorder', () => {
  it('nearest-rank percentiles of 1..100 in shuffled order', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    for (let i = values.length - 1; i > 0; i--) {
      const j = (i * 37) % (i + 1);
      [values[i], values[j]] = [values[j]!, values[i]!];
    }
    const s = recorderOf(values).summary();
    expect(s).toMatchObject({ count: 100, p50: 50, p90: 90, p99: 99, p999: 100, max: 100, min: 1, mean: 50.5 });
  });

  it('1..1000: p99.9 is the 999th value, not the max', () => {
    const s = recorderOf(Array.from({ length: 1000 }, (_, i) => 1000 - i)).summary();
    expect([s.p50, s.p90, s.p99, s.p999, s.max]).toStrictEqual([500, 900, 990, 999, 1000]);
  });

  it('one sample is every percentile; no samples give zeros', () => {
    expect(recorderOf([42]).summary()).toMatchObject({ count: 1, p50: 42, p999: 42, max: 42, min: 42 });
    expect(new LatencyRecorder().summary()).toMatchObject({ count: 0, p50: 0, p99: 0, max: 0 });
  });

  it('grows past its initial capacity, keeps recording order, merges, and re-sorts after new samples', () => {
    const r = recorderOf(Array.from({ length: 5000 }, (_, i) => 5000 - i));
    expect(r.count).toBe(5000);
    expect(r.values()[0]).toBe(5000);
    expect(r.percentile(50)).toBe(2500);
    r.merge(recorderOf([1e6]));
    expect(r.summary().max).toBe(1e6);
    expect(r.count).toBe(5001);
  });

  it('roundedSummary rounds to 0.1 µs', () => {
    expect(roundedSummary(recorderOf([1.234, 5.678])).max).toBe(5.7);
  });
});

describe('histogram and timeline', () => {
  it('log bins cover every sample exactly once, edges ascending', () => {
    const samples = [100, 150, 200, 1000, 5000, 10_000, 10_000];
    const bins = logHistogram(samples, 8);
    expect(bins).toHaveLength(8);
    expect(bins.reduce((s, b) => s + b.count, 0)).toBe(samples.length);
    expect(bins[0]!.lo).toBeCloseTo(100);
    expect(bins[7]!.hi).toBeCloseTo(10_000);
    expect(bins[0]!.count).toBe(2); // 100 and 150: the first bin is 100 .. 10^2.25 ≈ 178
    expect(bins[7]!.count).toBe(2); // both 10 ms samples land in the last bin
    for (let i = 1; i < bins.length; i++) expect(bins[i]!.lo).toBeCloseTo(bins[i - 1]!.hi);
    expect(renderHistogram(bins).split('\n').filter(Boolean)).toHaveLength(8);
  });

  it('identical samples make one bin; no samples make none', () => {
    const one = logHistogram([7, 7, 7], 10);
    expect(one).toHaveLength(1);
    expect(one[0]!.count).toBe(3);
    expect(one[0]!.lo).toBeCloseTo(7);
    expect(logHistogram([], 10)).toStrictEqual([]);
  });

  it('timeline bins carry each interval’s p50/p99/max of the latencies in it; an empty bin has zeros', () => {
    const times = [10, 20, 30, 40, 250, 260];
    const lat = [100, 400, 300, 200, 1000, 2000];
    const t = binTimeline(times, 300, 3, 100, lat);
    expect(t.counts).toStrictEqual([4, 0, 2]);
    expect(t.latency).toStrictEqual({ p50: [200, 0, 1000], p99: [400, 0, 2000], max: [400, 0, 2000] });
    expect(binTimeline(times, 300, 3, 100).latency).toBeUndefined();
  });

  it('the last timeline bin takes the remainder instead of a sliver', () => {
    const t = binTimeline([0, 1999, 2000], 2001, 20, 100);
    expect(t.counts).toHaveLength(20);
    expect(t.counts[19]).toBe(2);
    expect(t.perSec[19]).toBe(Math.round(2000 / 101));
  });

  it('sparkline: one block per value, scaled min to max, a gap where nothing was measured', () => {
    expect(sparkline([0, 2, 14])).toBe('▁▂█'); // 2 of 14 is 1 of 7 steps up
    expect(sparkline([5, 5])).toBe('▁▁');
    expect(sparkline([1, 0, 3], [true, false, true])).toBe('▁ █');
    expect(sparkline([])).toBe('');
  });

  it('timeline bins count every event and convert to a rate', () => {
    const t = binTimeline([0, 50, 99, 100, 250, 999], 1000, 10, 100);
    expect(t.binMs).toBe(100);
    expect(t.counts).toStrictEqual([3, 1, 1, 0, 0, 0, 0, 0, 0, 1]);
    expect(t.perSec[0]).toBe(30);
  });
});

describe('ExclusionChecker', () => {
  it('exclusive holders exclude everyone', () => {
    const c = new ExclusionChecker();
    c.enter('exclusive', 1n);
    c.exit('exclusive');
    c.enter('exclusive', 2n);
    expect(c.overlaps).toBe(0);
    c.enter('shared');
    expect(c.overlaps).toBe(1);
  });

  it('readers share; a writer among readers is an overlap', () => {
    const c = new ExclusionChecker();
    c.enter('shared');
    c.enter('shared');
    expect(c.overlaps).toBe(0);
    c.enter('exclusive');
    expect(c.overlaps).toBe(1);
  });

  it('leases up to maxLeases', () => {
    const c = new ExclusionChecker(2);
    c.enter('lease');
    c.enter('lease');
    expect(c.overlaps).toBe(0);
    c.enter('lease');
    expect(c.overlaps).toBe(1);
    expect(c.holders).toBe(3);
  });

  it('fencing tokens must strictly increase', () => {
    const c = new ExclusionChecker();
    for (const t of [5n, 9n, 9n, 3n]) {
      c.enter('exclusive', t);
      c.exit('exclusive');
    }
    expect(c.fencingViolations).toBe(2);
  });
});

describe('SVG', () => {
  it('the checker itself rejects what is not well-formed', () => {
    expect(checkXml('<a><b></a></b>').problems).not.toStrictEqual([]);
    expect(checkXml('<a x="1" x="2"/>').problems).not.toStrictEqual([]);
    expect(checkXml('<a>1 < 2</a>').problems).not.toStrictEqual([]);
    expect(checkXml('<a>&nbsp;</a>').problems).not.toStrictEqual([]);
    expect(checkXml('<a/><b/>').problems).not.toStrictEqual([]);
    expect(checkXml('<a x=1/>').problems).not.toStrictEqual([]);
    expect(checkXml('<?xml version="1.0"?>\n<a t="&amp;&#38;">x &lt; y<!-- c --><b/></a>\n').problems).toStrictEqual([]);
  });

  it('escapes markup in text taken from the server', () => {
    // &#39;, not &apos;: one escaper for the SVG and the analyze report's HTML, and HTML 4 has no &apos;.
    expect(xmlEscape(`<"a" & 'b'>`)).toBe('&lt;&quot;a&quot; &amp; &#39;b&#39;&gt;');
  });

  it('a synthetic report with hostile strings and empty series still renders well-formed', () => {
    const empty = { count: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0, min: 0, mean: 0 };
    const some = { count: 3, p50: 200, p90: 300, p99: 900, p999: 900, max: 900, min: 150, mean: 400 };
    const report = {
      benchmark: 'lock',
      interrupted: false,
      server: { connectString: '127.0.0.1:1', version: '3.8.0-<&"weird">', mode: 'standalone', settings: {} },
      environment: { node: 'v20', cpu: 'x', cpus: 1, platform: 'linux-x64' },
      settings: { kind: 'mutex', clients: 1, holdMs: 0, leases: null, durationS: 1, iterations: null, ratePerSec: null, floorSamples: 2, path: '/p' },
      elapsedMs: 1000,
      acquisitions: 3,
      throughputPerSec: 3,
      overlaps: 0,
      fencingViolations: 0,
      perClient: [3],
      acquire: some,
      release: some,
      cycle: some,
      handoff: empty,
      floor: { ping: some, create: some, delete: some, deleteGetChildren: some, handoff: some },
      ratios: { acquireToCreate: 1, cycleToCreate: 1, releaseToDelete: 1, handoffToHandoffFloor: 0, handoffToDeleteGetChildren: 0 },
      timeline: binTimeline([10, 500, 900], 1000, 10, 100, [150, 200, 900]),
      histogram: { acquire: logHistogram([150, 200, 900], 24), handoff: [] },
      openLoop: null,
    } satisfies LockReport;
    const svg = renderLockSvg(report);
    const { problems, elements } = checkXml(svg);
    expect(problems).toStrictEqual([]);
    expect(elements[0]).toBe('svg');
    expect(elements).toContain('polyline');
    expect(elements).toContain('circle'); // each interval's p50/p99 here is a single point between empty intervals
    expect(svg).toContain('acquire p99 900 µs');
    expect(svg).not.toMatch(/href|<script|<style|@import|url\(/);
    expect(renderLockSvg({ ...report, histogram: { acquire: [], handoff: [] }, timeline: binTimeline([], 0) })).toContain('no samples');
  });
});

describe('bench arguments', () => {
  it('reads --json FILE (after the global --json), --json=FILE and a bare --json (stdout)', async () => {
    const { parseArgs } = await import('../../src/cli/args.js');
    const { parseBenchArgs } = await import('../../src/cli/commands/bench.js');
    const bench = (...argv: string[]) => {
      const p = parseArgs(['bench', ...argv]);
      return parseBenchArgs(p.rest, p.globals.json);
    };
    expect(bench('lock', '--json', 'out.json').json).toBe('out.json');
    expect(bench('lock', '--json=out.json').json).toBe('out.json');
    expect(bench('raw', '--json').json).toBe('-');
    expect(bench('lock', '--clients', '3', '--hold', '99999999999').lock).toEqual({ clients: 3, holdMs: 99999999999 });
    expect(() => bench('lock', '--duration', '2', '--iterations', '5')).toThrow(/not both/);
    expect(() => bench('lock', '--frobnicate')).toThrow(/unknown option --frobnicate/);
    expect(() => bench()).toThrow(/lock or raw/);
  });
});
