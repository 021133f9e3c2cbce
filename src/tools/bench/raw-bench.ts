/**
 * bench raw: the zkwire client's cost per operation next to the floor (a bare socket with pre-built frames),
 * measured in the same run against the same server. Client and floor take turns in rounds so neither side
 * profits from a warmer JIT or a calmer machine; the figures are the union of all rounds.
 *
 * Sequential: getData, and create+delete pairs (persistent nodes, so both are real writes), one at a time.
 * Pipelined: getData with up to `window` requests in flight, reported as requests per second (median of rounds).
 * Idle sessions: `idleSessions` clients open at once in this process, and the RSS they cost.
 */

import { ZooKeeperError } from '../../errors.js';
import { randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import type { ZooKeeperClient } from '../../client.js';
import { connectNode } from './connect.js';
import { floorCreateDelete, floorGetData, floorPing, floorPipelinedGetData, floorPipelinedPing, timedLoop } from './floor.js';
import { measureIdleSessionsIsolated, type IdleSessionsResult } from './idle-sessions.js';
import { RawConnection } from './raw-client.js';
import { LatencyRecorder, roundedSummary } from './recorder.js';
import type { LatencyStats } from '../shared/histogram.js';
import { firstEndpoint, serverInfo, type ServerInfo } from './server-info.js';

export interface RawBenchOptions {
  connectString: string;
  /** Sequential samples per operation per side, spread over `rounds`. Default 5000. */
  samples?: number;
  /** Alternating client/floor rounds. Default 5. */
  rounds?: number;
  /** Requests per pipelined round. Default 20000. */
  pipelineTotal?: number;
  /** Alternating client/floor pipelined rounds. Default 7. */
  pipelineRounds?: number;
  /** Most requests in flight when pipelining. Default 1000. */
  window?: number;
  /** Concurrent idle sessions to open (0 skips it). Default 1000. */
  idleSessions?: number;
  /** Called with a short status line now and then. */
  onProgress?: (line: string) => void;
  /** Stops the run early: the sessions are closed and the nodes removed, and it rejects with ABORTED (no report). */
  signal?: AbortSignal;
  /** Told each clean-up step after the signal, before it is waited for. */
  onCleanup?: (what: string) => void;
}

export interface Throughput {
  /** Median of the rounds, requests per second. */
  opsPerSec: number;
  rounds: number[];
}

export interface RawReport {
  benchmark: 'raw';
  server: ServerInfo;
  environment: { node: string; cpu: string; cpus: number; platform: string };
  settings: { samples: number; rounds: number; pipelineRounds: number; pipelineTotal: number; window: number; idleSessions: number; dataBytes: number };
  client: { getData: LatencyStats; create: LatencyStats; delete: LatencyStats; createDelete: LatencyStats; pipelinedGetData: Throughput };
  floor: {
    ping: LatencyStats;
    getData: LatencyStats;
    create: LatencyStats;
    delete: LatencyStats;
    createDelete: LatencyStats;
    pipelinedGetData: Throughput;
    pipelinedPing: Throughput;
  };
  /** client / floor; latency ratios on p50, throughput ratio client over floor. */
  ratios: { getDataP50: number; createDeleteP50: number; pipelinedGetData: number };
  targets: { sequentialP50Within105: boolean; pipelinedAtLeast095: boolean; idleRssUnder100MB: boolean | null };
  idleSessions: (IdleSessionsResult & { isolated: boolean }) | null;
}

const DATA = new Uint8Array(64).fill(0x61);

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.floor((s.length - 1) / 2)]!;
}

/** The client's pipelined getData: keeps `window` calls outstanding, starting a new one as each settles. */
function clientPipelined(client: ZooKeeperClient, path: string, total: number, window: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let done = 0;
    const start = performance.now();
    const launch = (): void => {
      sent++;
      client.getData(path).then(settled, reject);
    };
    const settled = (): void => {
      done++;
      if (done === total) resolve(total / ((performance.now() - start) / 1000));
      else if (sent < total) launch();
    };
    for (let i = 0; i < Math.min(window, total); i++) launch();
  });
}

export async function runRawBench(opts: RawBenchOptions): Promise<RawReport> {
  const samples = opts.samples ?? 5000;
  const rounds = Math.max(1, opts.rounds ?? 5);
  const pipelineRounds = Math.max(1, opts.pipelineRounds ?? 7);
  const pipelineTotal = opts.pipelineTotal ?? 20_000;
  const window = opts.window ?? 1000;
  const idle = opts.idleSessions ?? 1000;
  const perRound = Math.max(1, Math.ceil(samples / rounds));
  const progress = opts.onProgress ?? (() => {});

  const signal = opts.signal;
  const interrupted = (): boolean => signal?.aborted === true;
  const server = await serverInfo(opts.connectString);
  const { host, port } = firstEndpoint(opts.connectString);
  const client = await connectNode(opts.connectString);
  const raw = await RawConnection.open(host, port);
  const base = `/zkwire-bench-raw-${randomUUID()}`;
  const dataPath = `${base}/data`;
  const c = { getData: new LatencyRecorder(), create: new LatencyRecorder(), delete: new LatencyRecorder(), createDelete: new LatencyRecorder() };
  const f = {
    ping: new LatencyRecorder(),
    getData: new LatencyRecorder(),
    create: new LatencyRecorder(),
    delete: new LatencyRecorder(),
    createDelete: new LatencyRecorder(),
  };
  const clientTput: number[] = [];
  const pingTput: number[] = [];
  const floorTput: number[] = [];
  // The measurements run as one piece of work; the signal stops waiting for it at once. Clean-up then closes the
  // client first (its calls in flight fail with CLOSED, so nothing more is created) and removes the nodes
  // through a session of its own.
  const work = (async (): Promise<void> => {
      await client.create(base);
      await client.create(dataPath, DATA);
      await client.create(`${base}/c`);
      await client.create(`${base}/f`);

      progress('warming up');
      const warm = Math.min(1000, perRound);
      await floorPing(raw, warm, undefined);
      await floorGetData(raw, dataPath, warm, undefined);
      await timedLoop(warm, undefined, () => client.getData(dataPath));
      await floorCreateDelete(raw, `${base}/f`, Math.min(200, warm), {}, 'w');
      await timedLoop(Math.min(200, warm), undefined, async (i) => {
        await client.create(`${base}/c/w-${i}`);
        await client.delete(`${base}/c/w-${i}`);
      });
      await floorPipelinedGetData(raw, dataPath, Math.min(pipelineTotal, 10_000), window);
      await clientPipelined(client, dataPath, Math.min(pipelineTotal, 10_000), window);

      for (let r = 0; r < rounds; r++) {
        const tag = `r${r}`;
        progress(`sequential round ${r + 1}/${rounds}`);
        const floorSeq = async (): Promise<void> => {
          await floorPing(raw, perRound, f.ping);
          await floorGetData(raw, dataPath, perRound, f.getData);
          await floorCreateDelete(raw, `${base}/f`, perRound, { create: f.create, delete: f.delete, pair: f.createDelete }, tag);
        };
        const clientSeq = async (): Promise<void> => {
          await timedLoop(perRound, c.getData, () => client.getData(dataPath));
          for (let i = 0; i < perRound; i++) {
            const path = `${base}/c/${tag}-${i}`;
            const t0 = performance.now();
            await client.create(path);
            const t1 = performance.now();
            await client.delete(path);
            const t2 = performance.now();
            c.create.record((t1 - t0) * 1000);
            c.delete.record((t2 - t1) * 1000);
            c.createDelete.record((t2 - t0) * 1000);
          }
        };
        // Floor first on even rounds, client first on odd ones.
        if (r % 2 === 0) {
          await floorSeq();
          await clientSeq();
        } else {
          await clientSeq();
          await floorSeq();
        }
      }
      for (let r = 0; r < pipelineRounds; r++) {
        progress(`pipelined round ${r + 1}/${pipelineRounds}`);
        const floorPipe = async (): Promise<void> => {
          floorTput.push(await floorPipelinedGetData(raw, dataPath, pipelineTotal, window));
          pingTput.push(await floorPipelinedPing(raw, pipelineTotal, window));
        };
        const clientPipe = async (): Promise<void> => {
          clientTput.push(await clientPipelined(client, dataPath, pipelineTotal, window));
        };
        if (r % 2 === 0) {
          await floorPipe();
          await clientPipe();
        } else {
          await clientPipe();
          await floorPipe();
        }
      }
  })();
  work.catch(() => {});
  const stopped = new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
  try {
    await Promise.race([work, stopped]);
  } finally {
    if (signal?.aborted === true) opts.onCleanup?.(`the sessions to close and ${base} to be removed`);
    await raw.close().catch(() => {});
    if (signal?.aborted === true) {
      await client.close();
      await work.catch(() => {});
      const cleaner = await connectNode(opts.connectString).catch(() => undefined);
      await cleaner?.deleteRecursive(base).catch(() => {});
      await cleaner?.close();
    } else {
      await client.deleteRecursive(base).catch(() => {});
      await client.close();
    }
  }
  if (signal?.aborted === true) throw new ZooKeeperError('ABORTED', 'interrupted before the end: no report (a partial comparison would mislead)');
  await work;

  let idleResult: (IdleSessionsResult & { isolated: boolean }) | null = null;
  if (idle > 0) {
    progress(`opening ${idle} idle sessions`);
    const stopping = (): void => opts.onCleanup?.('the idle sessions to close');
    signal?.addEventListener('abort', stopping, { once: true });
    try {
      idleResult = await measureIdleSessionsIsolated({
        connectString: opts.connectString,
        sessions: idle,
        onProgress: (n) => progress(`idle sessions open: ${n}/${idle}`),
        ...(signal === undefined ? {} : { signal }),
      });
    } catch (err) {
      // a call, not `signal?.aborted`: TypeScript would keep the narrowing from before the awaits
      if (interrupted()) throw new ZooKeeperError('ABORTED', 'interrupted before the end: no report (a partial comparison would mislead)');
      throw err;
    } finally {
      signal?.removeEventListener('abort', stopping);
    }
  }

  const client_ = {
    getData: roundedSummary(c.getData),
    create: roundedSummary(c.create),
    delete: roundedSummary(c.delete),
    createDelete: roundedSummary(c.createDelete),
    pipelinedGetData: { opsPerSec: Math.round(median(clientTput)), rounds: clientTput.map(Math.round) },
  };
  const floor = {
    ping: roundedSummary(f.ping),
    getData: roundedSummary(f.getData),
    create: roundedSummary(f.create),
    delete: roundedSummary(f.delete),
    createDelete: roundedSummary(f.createDelete),
    pipelinedGetData: { opsPerSec: Math.round(median(floorTput)), rounds: floorTput.map(Math.round) },
    pipelinedPing: { opsPerSec: Math.round(median(pingTput)), rounds: pingTput.map(Math.round) },
  };
  const ratio = (a: number, b: number): number => (b > 0 ? Math.round((a / b) * 1000) / 1000 : 0);
  const ratios = {
    getDataP50: ratio(client_.getData.p50, floor.getData.p50),
    createDeleteP50: ratio(client_.createDelete.p50, floor.createDelete.p50),
    pipelinedGetData: ratio(client_.pipelinedGetData.opsPerSec, floor.pipelinedGetData.opsPerSec),
  };
  return {
    benchmark: 'raw',
    server,
    environment: { node: process.version, cpu: cpus()[0]?.model ?? 'unknown', cpus: cpus().length, platform: `${process.platform}-${process.arch}` },
    settings: { samples: perRound * rounds, rounds, pipelineRounds, pipelineTotal, window, idleSessions: idle, dataBytes: DATA.length },
    client: client_,
    floor,
    ratios,
    targets: {
      sequentialP50Within105: ratios.getDataP50 <= 1.05 && ratios.createDeleteP50 <= 1.05,
      pipelinedAtLeast095: ratios.pipelinedGetData >= 0.95,
      idleRssUnder100MB: idleResult === null ? null : idleResult.rssWith < 100 * 1024 * 1024,
    },
    idleSessions: idleResult,
  };
}
