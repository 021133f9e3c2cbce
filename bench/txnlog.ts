/**
 * bench/txnlog: how fast `zkwire txnlog` decodes a transaction log, against reading the same bytes alone.
 * Generates a log of --mb MB (default 256) in os.tmpdir() with a realistic mix (creates with small data, setData with
 * 100-400 bytes, one session per 1000 entries), then over --rounds rounds (default 5) measures:
 *   - read: the file through a 1 MiB read stream, nothing else (the floor: page cache and stream overhead);
 *   - decode: the same stream through TxnLogDecoder (checksums, every record decoded into objects);
 * and prints MB/s percentiles, the decode/read ratio and the peak RSS, as a table and as one JSON line.
 * Goal: decode ≥ 100 MB/s. The file is removed at the end.
 *
 *   npm run bench:txnlog -- [--mb N] [--rounds N]
 */

import { createReadStream, openSync, closeSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmtMB, renderTable } from '../src/tools/shared/table.js';
import { TxnLogDecoder } from '../src/tools/txnlog/index.js';
import { createTxn, setDataTxn, txnLogEntry, txnLogHeader } from '../test/tools/txnlog/txnlog-writer.js';

const TARGET_MB_S = 100;
const MB = 1024 * 1024;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
}

function generate(file: string, bytes: number): number {
  const fd = openSync(file, 'w');
  let written = 0;
  let entries = 0;
  const pending: Uint8Array[] = [txnLogHeader()];
  let pendingBytes = 16;
  const data = new Uint8Array(400).fill(0x61);
  let zxid = 0n;
  while (written + pendingBytes < bytes) {
    zxid++;
    const session = 0x1000000n + zxid / 1000n;
    const n = Number(zxid % 4n);
    const e = txnLogEntry(n === 0 ? createTxn(session, zxid, `/app/service-${zxid % 500n}/node-${zxid}`, data.subarray(0, 20)) : setDataTxn(session, zxid, `/app/service-${zxid % 500n}/node-${zxid - BigInt(n)}`, data.subarray(0, 100 + (Number(zxid) % 300))));
    pending.push(e);
    pendingBytes += e.length;
    entries++;
    if (pendingBytes > 4 * MB) {
      for (const p of pending) writeSync(fd, p);
      written += pendingBytes;
      pending.length = 0;
      pendingBytes = 0;
    }
  }
  for (const p of pending) writeSync(fd, p);
  writeSync(fd, new Uint8Array(64 * 1024)); // a bit of preallocated tail
  closeSync(fd);
  return entries;
}

async function readOnly(file: string): Promise<number> {
  let n = 0;
  for await (const c of createReadStream(file, { highWaterMark: MB }) as AsyncIterable<Uint8Array>) n += c.length;
  return n;
}

async function decode(file: string): Promise<number> {
  const d = new TxnLogDecoder();
  let txns = 0;
  for await (const c of createReadStream(file, { highWaterMark: MB }) as AsyncIterable<Uint8Array>) {
    for (const e of d.push(c)) if (e.type === 'txn') txns++;
  }
  d.end();
  return txns;
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<void> {
  const mb = arg('--mb', 256);
  const rounds = arg('--rounds', 5);
  const file = join(tmpdir(), `zkwire-bench-txnlog-${process.pid}.log`);
  const cleanup = (): void => rmSync(file, { force: true });
  process.once('SIGINT', () => {
    cleanup();
    process.exit(130);
  });
  try {
    const entries = generate(file, mb * MB);
    const size = statSync(file).size;
    process.stdout.write(`log: ${fmtMB(size)}, ${entries} entries (avg ${(size / entries).toFixed(0)} B), ${rounds} rounds\n`);
    const readRates: number[] = [];
    const decodeRates: number[] = [];
    let peakRss = 0;
    for (let r = 0; r < rounds; r++) {
      let t = performance.now();
      await readOnly(file);
      readRates.push(size / MB / ((performance.now() - t) / 1000));
      t = performance.now();
      const txns = await decode(file);
      decodeRates.push(size / MB / ((performance.now() - t) / 1000));
      if (txns !== entries) throw new Error(`decoded ${txns} of ${entries} entries`);
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }
    readRates.sort((a, b) => a - b);
    decodeRates.sort((a, b) => a - b);
    const row = (name: string, rates: number[]): string[] => [name, ...[50, 90, 0].map((p) => (p === 0 ? rates[0]! : pct(rates, p)).toFixed(0)), (pct(rates, 50) / pct(readRates, 50)).toFixed(2)];
    process.stdout.write(renderTable(['MB/s', 'p50', 'p90', 'min', 'ratio to read'], [row('read only', readRates), row('decode', decodeRates)]));
    const p50 = pct(decodeRates, 50);
    process.stdout.write(`decode p50 ${p50.toFixed(0)} MB/s: ${p50 >= TARGET_MB_S ? '≥' : '<'} target ${TARGET_MB_S} MB/s; peak RSS ${fmtMB(peakRss)}\n`);
    process.stdout.write(`${JSON.stringify({ bench: 'txnlog', bytes: size, entries, rounds, readMBs: { p50: pct(readRates, 50), min: readRates[0] }, decodeMBs: { p50, min: decodeRates[0] }, ratio: p50 / pct(readRates, 50), peakRss, targetMBs: TARGET_MB_S })}\n`);
  } finally {
    cleanup();
  }
}

await main();
