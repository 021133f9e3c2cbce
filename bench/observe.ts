/**
 * bench/observe: what the observability hook costs on pipelined getData (issue #28's goal: at most 2 % with no
 * subscriber). Three variants of one workload, in alternating rounds on one server so that drift hits them alike:
 *
 *   - floor: a client made with `observe: false`, the call path without the hook (the code before it);
 *   - no subscriber: a default client (`zkwire:operation` checked and found empty, no stats collector);
 *   - collecting: the same client while a `collectStats` collector counts its calls;
 *   - subscribed: the same client while no-op handlers listen on every `zkwire:operation` event.
 *
 * Each round keeps `--window` getData calls outstanding until `--total` have settled. Per variant the table gives
 * the median round's throughput, the client process's CPU time per call (what the hook adds to: on a loaded or
 * remote server, throughput mostly measures the server) with its ratio to the floor's, and the per-call latency
 * percentiles over every round. Nothing is asserted: on a shared machine the rounds' spread is part of the answer
 * (printed too).
 * Without --server a throwaway local ZooKeeper is started.
 *
 *   npm run bench:observe -- [--server HOST:PORT] [--total N] [--window N] [--rounds N] [--json FILE]
 */

import diagnostics from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import { ZooKeeperClient } from '../src/node.js';
import { collectStats } from '../src/client/collect-stats.js';
import { withServer } from '../src/testing/local-server/index.js';
import { LatencyHistogram } from '../src/tools/shared/histogram.js';
import { fmtRate, fmtUs, renderTable } from '../src/tools/shared/table.js';

type Variant = 'floor' | 'no subscriber' | 'collecting' | 'subscribed';
const VARIANTS: readonly Variant[] = ['floor', 'no subscriber', 'collecting', 'subscribed'];

interface Round {
  /** Calls per second. */
  readonly rate: number;
  /** This process's CPU time (user + system) per call, µs. */
  readonly cpuUs: number;
}

/** One round: `total` getData calls, `window` outstanding; per-call latencies (µs) into `h`. */
function pipelined(client: ZooKeeperClient, path: string, total: number, window: number, h: LatencyHistogram): Promise<Round> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let done = 0;
    const start = performance.now();
    const cpu = process.cpuUsage();
    const launch = (): void => {
      sent++;
      const t0 = performance.now();
      client.getData(path).then(() => {
        h.record((performance.now() - t0) * 1000);
        if (++done === total) {
          const used = process.cpuUsage(cpu);
          resolve({ rate: total / ((performance.now() - start) / 1000), cpuUs: (used.user + used.system) / total });
        }
        else if (sent < total) launch();
      }, reject);
    };
    for (let i = 0; i < Math.min(window, total); i++) launch();
  });
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? 0;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const total = Number(opt('--total') ?? 20_000);
  const window = Number(opt('--window') ?? 500);
  const rounds = Number(opt('--rounds') ?? 9);
  const server = opt('--server');
  const io = { err: (t: string): void => void process.stderr.write(t) };
  await withServer(server === undefined ? {} : { server }, io, async ({ connectString }) => {
    await using floor = await ZooKeeperClient.connect(connectString, { observe: false });
    await using observed = await ZooKeeperClient.connect(connectString);
    const path = `/bench-observe-${process.pid}`;
    await observed.create(path, new Uint8Array(100));
    const channel = diagnostics.tracingChannel('zkwire:operation');
    const noop = (): void => {};
    const handlers = { start: noop, end: noop, asyncStart: noop, asyncEnd: noop, error: noop };
    const latency = new Map(VARIANTS.map((v) => [v, new LatencyHistogram()]));
    const rounds_ = new Map<Variant, Round[]>(VARIANTS.map((v) => [v, []]));
    const run = async (v: Variant, h: LatencyHistogram): Promise<Round> => {
      if (v === 'subscribed') channel.subscribe(handlers);
      const collector = v === 'collecting' ? collectStats(observed) : undefined;
      try {
        return await pipelined(v === 'floor' ? floor : observed, path, total, window, h);
      } finally {
        if (v === 'subscribed') channel.unsubscribe(handlers);
        collector?.stop();
      }
    };
    // Warm-up: JIT and the server's caches, measured nowhere.
    for (const v of VARIANTS) await run(v, new LatencyHistogram());
    for (let r = 0; r < rounds; r++) {
      process.stderr.write(`  … round ${r + 1}/${rounds}\n`);
      // Rotate the order each round so that none always runs first (or right after a GC-heavy one).
      for (let i = 0; i < VARIANTS.length; i++) {
        const v = VARIANTS[(i + r) % VARIANTS.length] as Variant;
        rounds_.get(v)!.push(await run(v, latency.get(v)!));
      }
    }
    await observed.delete(path);
    const baseCpu = median(rounds_.get('floor')!.map((r) => r.cpuUs));
    const figures = VARIANTS.map((v) => {
      const h = latency.get(v)!;
      const rs = rounds_.get(v)!.map((r) => r.rate);
      const cpuUs = median(rounds_.get(v)!.map((r) => r.cpuUs));
      return {
        variant: v,
        throughput: median(rs),
        slowest: Math.min(...rs),
        fastest: Math.max(...rs),
        cpuUsPerCall: cpuUs,
        cpuOverheadPercent: (cpuUs / baseCpu - 1) * 100,
        p50Us: h.percentile(50),
        p90Us: h.percentile(90),
        p99Us: h.percentile(99),
      };
    });
    process.stdout.write(
      `\npipelined getData (100-byte node), ${total} calls per round, ${window} in flight, ${rounds} rounds per variant, ${connectString}\n`,
    );
    process.stdout.write(
      renderTable(
        ['variant', 'calls/s (median)', 'rounds min–max', 'client CPU/call', 'vs floor', 'p50', 'p90', 'p99'],
        figures.map((f) => [
          f.variant,
          fmtRate(f.throughput),
          `${fmtRate(f.slowest)}–${fmtRate(f.fastest)}`,
          `${f.cpuUsPerCall.toFixed(2)} µs`,
          f.variant === 'floor' ? '–' : `${f.cpuOverheadPercent >= 0 ? '+' : ''}${f.cpuOverheadPercent.toFixed(1)} %`,
          fmtUs(f.p50Us),
          fmtUs(f.p90Us),
          fmtUs(f.p99Us),
        ]),
      ),
    );
    process.stdout.write('vs floor: the client CPU time per call (median round) against the floor\'s, the hook\'s cost\n');
    const json = opt('--json');
    if (json !== undefined) writeFileSync(json, `${JSON.stringify({ total, window, rounds, figures }, null, 2)}\n`);
  });
}

main().catch((e: unknown) => {
  process.stderr.write(`bench observe: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
