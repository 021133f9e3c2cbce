/**
 * bench lock and bench raw against a real ZooKeeper: the reports' figures must be consistent with each other
 * (counts add up, percentiles ordered, no overlaps). Nothing here asserts how fast anything is.
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/cli.js';
import { runLockBench, type LockReport } from '../../src/tools/bench/lock-bench.js';
import { runRawBench } from '../../src/tools/bench/raw-bench.js';
import type { LatencyStats } from '../../src/tools/shared/histogram.js';
import { sharedServer } from '../harness/zookeeper.js';
import { checkXml } from './bench-xml.js';

async function* noInput(): AsyncGenerator<string> {}

let connectString: string;
let dir: string;

beforeAll(async () => {
  connectString = (await sharedServer()).connectString;
  dir = mkdtempSync(join(tmpdir(), 'zkwire-bench-test-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function expectOrdered(name: string, s: LatencyStats): void {
  expect(Object.keys(s), name).toEqual(expect.arrayContaining(['count', 'p50', 'p90', 'p99', 'p999', 'max']));
  if (s.count === 0) return;
  const chain = [s.min, s.p50, s.p90, s.p99, s.p999, s.max];
  for (let i = 1; i < chain.length; i++) expect(chain[i]!, `${name}: ${chain.join(' ≤ ')}`).toBeGreaterThanOrEqual(chain[i - 1]!);
  expect(s.min, name).toBeGreaterThan(0);
}

function expectConsistent(r: LockReport, iterations: number, clients: number, floorSamples: number): void {
  expect(r.overlaps).toBe(0);
  expect(r.fencingViolations).toBe(0);
  expect(r.acquisitions).toBe(iterations);
  for (const key of ['acquire', 'release', 'cycle'] as const) expect(r[key].count, key).toBe(iterations);
  expect(r.perClient).toHaveLength(clients);
  expect(r.perClient.reduce((a, b) => a + b, 0)).toBe(iterations);
  expect(r.timeline.counts.reduce((a, b) => a + b, 0)).toBe(iterations);
  const lat = r.timeline.latency!;
  for (const series of [lat.p50, lat.p99, lat.max]) expect(series).toHaveLength(r.timeline.counts.length);
  r.timeline.counts.forEach((c, i) => {
    if (c === 0) expect([lat.p50[i], lat.p99[i], lat.max[i]]).toStrictEqual([0, 0, 0]);
    else expect(0 < lat.p50[i]! && lat.p50[i]! <= lat.p99[i]! && lat.p99[i]! <= lat.max[i]!, `interval ${i}`).toBe(true);
  });
  expect(r.histogram.acquire.reduce((a, b) => a + b.count, 0)).toBe(iterations);
  expect(r.histogram.handoff.reduce((a, b) => a + b.count, 0)).toBe(r.handoff.count);
  expect(r.handoff.count).toBeLessThanOrEqual(iterations - 1);
  expect(r.floor.ping.count).toBe(floorSamples);
  expect(r.floor.create.count).toBe(floorSamples);
  for (const [name, s] of Object.entries({ acquire: r.acquire, release: r.release, cycle: r.cycle, handoff: r.handoff })) {
    expectOrdered(name, s);
  }
  for (const [name, s] of Object.entries(r.floor)) {
    expect(s.count, `floor ${name}`).toBe(floorSamples);
    expectOrdered(`floor ${name}`, s);
  }
  // A cycle is one acquire plus one release, so its extremes are bounded by theirs.
  expect(r.cycle.max).toBeLessThanOrEqual(r.acquire.max + r.release.max + 0.2);
  expect(r.cycle.min).toBeGreaterThanOrEqual(r.acquire.min + r.release.min - 0.2);
  expect(r.throughputPerSec).toBeGreaterThan(0);
  expect(r.server.version).toMatch(/^\d+\.\d+\.\d+/);
  expect(r.settings.clients).toBe(clients);
}

describe('bench lock on a real server', () => {
  it('K=1: the uncontended path, no hand-offs', async () => {
    const r = await runLockBench({ connectString, clients: 1, iterations: 30, floorSamples: 20 });
    expectConsistent(r, 30, 1, 20);
    expect(r.handoff.count).toBe(0);
    expect(r.perClient).toStrictEqual([30]);
  });

  it('every run carries its floors (create, delete, hand-off) and the ratios to them', async () => {
    const r = await runLockBench({ connectString, clients: 2, iterations: 40, floorSamples: 10 });
    expectConsistent(r, 40, 2, 10);
    expect(r.handoff.count).toBeGreaterThan(0);
    for (const key of ['acquireToCreate', 'releaseToDelete', 'handoffToHandoffFloor'] as const) {
      expect(Number.isFinite(r.ratios[key]), key).toBe(true);
      expect(r.ratios[key], key).toBeGreaterThan(0);
    }
    const out: string[] = [];
    const code = await runCli(['bench', 'lock', '--server', connectString, '--clients', '2', '--iterations', '20', '--floor-samples', '10'], {
      out: (t) => void out.push(t),
      err: () => {},
      stdin: noInput(),
    });
    expect(code).toBe(0);
    const text = out.join('');
    for (const row of ['floor: create', 'floor: delete', 'floor: hand-off']) expect(text).toContain(row);
    expect(text).toMatch(/floor ratios \(p50\): acquire \/ create \d+\.\d\d×, hand-off \/ hand-off floor \d+\.\d\d×, release \/ delete \d+\.\d\d×/);
  });

  it('K=4 mutex: every acquisition after a waiting session is a hand-off, none overlap', async () => {
    const r = await runLockBench({ connectString, clients: 4, iterations: 120, floorSamples: 20 });
    expectConsistent(r, 120, 4, 20);
    expect(r.handoff.count).toBeGreaterThan(0);
    // Fair lock, all four looping: nobody is starved.
    for (const n of r.perClient) expect(n).toBeGreaterThan(0);
  });

  it.each(['read-write', 'semaphore'] as const)('K=4 %s: consistent and no overlaps', async (kind) => {
    const r = await runLockBench({ connectString, kind, clients: 4, iterations: 40, floorSamples: 10, leases: 2 });
    expectConsistent(r, 40, 4, 10);
    expect(r.settings.leases).toBe(kind === 'semaphore' ? 2 : null);
  });

  it('the CLI writes the JSON report with the documented keys and a well-formed SVG', async () => {
    const json = join(dir, 'lock.json');
    const svg = join(dir, 'lock.svg');
    const err: string[] = [];
    const out: string[] = [];
    // --floor-samples 10: the report's floor count must equal its setting, whatever the setting (the default 1000 was
    // most of this test's time)
    const code = await runCli(['bench', 'lock', '--server', connectString, '--clients', '2', '--iterations', '20', '--hold', '1', '--floor-samples', '10', '--json', json, '--svg', svg], {
      out: (t) => void out.push(t),
      err: (t) => void err.push(t),
      stdin: noInput(),
    });
    expect(code, err.join('')).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as Record<string, unknown> & { floor: Record<string, unknown> };
    for (const key of ['acquire', 'release', 'cycle', 'handoff']) expect(report[key]).toHaveProperty('p999');
    expect(report.floor['ping']).toHaveProperty('p999');
    expect(report.floor['create']).toHaveProperty('count', (report['settings'] as { floorSamples: number }).floorSamples);
    expect(report).toMatchObject({ acquisitions: 20, overlaps: 0, settings: { holdMs: 1, clients: 2, kind: 'mutex', floorSamples: 10 } });
    expect(typeof report['throughputPerSec']).toBe('number');
    expect(out.join('')).toMatch(/mutual exclusion: 0 overlaps/);
    const xml = readFileSync(svg, 'utf8');
    expect(checkXml(xml).problems).toStrictEqual([]);
    expect(xml).toContain('<svg');
  });

  it('usage errors exit 2 before touching a server', async () => {
    const err: string[] = [];
    const io = { out: () => {}, err: (t: string) => void err.push(t), stdin: noInput() };
    expect(await runCli(['bench', 'lock', '--kind', 'spinlock'], io)).toBe(2);
    expect(await runCli(['bench', 'lock', '--duration', '1', '--iterations', '5'], io)).toBe(2);
    expect(await runCli(['bench'], io)).toBe(2);
    expect(err.join('')).toMatch(/--kind must be one of/);
  });
});

describe('bench raw on a real server', () => {
  it('client and floor figures are complete and ordered', async () => {
    const r = await runRawBench({ connectString, samples: 40, rounds: 2, pipelineTotal: 300, pipelineRounds: 2, window: 100, idleSessions: 5 });
    for (const [name, s] of Object.entries({ ...r.floor, ...r.client })) {
      if ('opsPerSec' in s) {
        expect(s.rounds, name).toHaveLength(2);
        expect(s.opsPerSec, name).toBeGreaterThan(0);
      } else {
        expect(s.count, name).toBe(40);
        expectOrdered(name, s);
      }
    }
    expect(r.ratios.getDataP50).toBeGreaterThan(0);
    expect(r.idleSessions?.sessions).toBe(5);
    expect(r.idleSessions!.rssWith).toBeGreaterThan(0);
  });
});
