/**
 * bench/acquire: where an uncontended acquire's time goes beyond one create round trip, in interleaved rounds against
 * one server:
 *   raw create             — the floor: one create on a bare socket (src/tools/bench/raw-client.ts);
 *   raw create + listing   — the same socket sending the create and a getChildren of its parent back to back, as an
 *                            acquire does: what the server adds for the listing;
 *   client create          — one create through the zkwire client: what the client's own write and read path adds;
 *   client create + listing — the acquire's two requests through the client, without the lock;
 *   acquire                — InterProcessMutex.acquire(), uncontended (each followed by an untimed release).
 * Every create makes a node that is deleted before the next (untimed), so the listings stay one child long.
 *
 *   npm run bench:acquire -- [--server HOST:PORT] [--rounds N] [--samples N]
 */

import { ZooKeeperClient } from '../src/node.js';
import { OpCode } from '../src/protocol/index.js';
import { InterProcessMutex } from '../src/index.js';
import { RawConnection } from '../src/tools/bench/raw-client.js';
import { LatencyRecorder, roundedSummary } from '../src/tools/bench/recorder.js';
import { firstEndpoint } from '../src/tools/bench/server-info.js';
import { fmtUs, renderTable } from '../src/tools/shared/table.js';
import { withServer } from '../src/testing/local-server/index.js';

/** Ephemeral, as a lock node is (the sequence suffix aside). */
const EPHEMERAL = 1;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const rounds = Number(opt('--rounds') ?? 6);
  const samples = Number(opt('--samples') ?? 200);
  const server = opt('--server');
  const io = { err: (t: string): void => void process.stderr.write(t) };
  await withServer(server === undefined ? {} : { server }, io, async ({ connectString }) => {
    const dir = `/zkwire-bench/acquire-${Date.now()}`;
    const zk = await ZooKeeperClient.connect(connectString);
    const { host, port } = firstEndpoint(connectString);
    const raw = await RawConnection.open(host, port);
    const mutex = new InterProcessMutex(zk, `${dir}/lock`);
    const names = ['raw create', 'raw create + listing', 'client create', 'client create + listing', 'acquire'] as const;
    const recs = new Map(names.map((n) => [n, new LatencyRecorder()]));
    const timed = async (name: (typeof names)[number] | undefined, op: () => Promise<unknown>): Promise<void> => {
      const t = performance.now();
      await op();
      if (name !== undefined) recs.get(name)!.since(t);
    };
    try {
      await zk.mkdirp(`${dir}/raw`);
      await zk.mkdirp(`${dir}/client`);
      const round = async (n: number, record: boolean): Promise<void> => {
        const as = <T extends (typeof names)[number]>(name: T): T | undefined => (record ? name : undefined);
        for (let i = 0; i < n; i++) {
          await timed(as('raw create'), () => raw.create(`${dir}/raw/x`, EPHEMERAL));
          await raw.delete(`${dir}/raw/x`);
        }
        for (let i = 0; i < n; i++) {
          await timed(as('raw create + listing'), () => Promise.all([raw.create(`${dir}/raw/x`, EPHEMERAL), raw.request(OpCode.getChildren, { path: `${dir}/raw`, watch: false })]));
          await raw.delete(`${dir}/raw/x`);
        }
        for (let i = 0; i < n; i++) {
          await timed(as('client create'), () => zk.create(`${dir}/client/x`, null, { mode: 'ephemeral', stat: true }));
          await zk.delete(`${dir}/client/x`);
        }
        for (let i = 0; i < n; i++) {
          await timed(as('client create + listing'), () => Promise.all([zk.create(`${dir}/client/x`, null, { mode: 'ephemeral', stat: true }), zk.getChildren(`${dir}/client`)]));
          await zk.delete(`${dir}/client/x`);
        }
        for (let i = 0; i < n; i++) {
          const t = performance.now();
          const lease = await mutex.acquire();
          if (record) recs.get('acquire')!.since(t);
          await lease.release();
        }
      };
      await round(samples, false);
      for (let r = 0; r < rounds; r++) {
        process.stderr.write(`  … round ${r + 1} of ${rounds}\n`);
        await round(samples, true);
      }
      const floor = roundedSummary(recs.get('raw create')!).p50;
      process.stdout.write(`Uncontended acquire against one create, ${rounds} rounds × ${samples} of each, ZooKeeper at ${connectString}\n`);
      process.stdout.write(
        renderTable(
          ['what', 'p50', 'p90', 'p50 / raw create'],
          names.map((n) => {
            const s = roundedSummary(recs.get(n)!);
            return [n, fmtUs(s.p50), fmtUs(s.p90), `${(s.p50 / floor).toFixed(2)}×`];
          }),
        ),
      );
    } finally {
      await raw.close();
      await zk.deleteRecursive(dir).catch(() => undefined);
      await zk.close();
    }
  });
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:acquire failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
