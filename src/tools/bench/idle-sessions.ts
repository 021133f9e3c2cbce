/**
 * Many idle sessions in one process: what a service holding one session per tenant (or a test spinning up a
 * thousand clients) pays in memory. Sessions are opened in batches so the server's accept queue is not the
 * thing measured, held idle for a moment (long enough for heartbeat timers to exist), then closed.
 */

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ZooKeeperClient } from '../../client.js';
import { connectNode } from './connect.js';
import { aborted } from '../../recipes/common/errors.js';
import { sleep } from '../../recipes/retry.js';
import { systemClock } from '../../session/clock.js';

export interface IdleSessionsResult {
  sessions: number;
  /** Process RSS before the first session, bytes. */
  rssBefore: number;
  /** Process RSS with every session open and idle, bytes. */
  rssWith: number;
  /** Heap in use with every session open, bytes. */
  heapUsedWith: number;
  /** (rssWith - rssBefore) / sessions, bytes. */
  perSession: number;
  openMs: number;
  closeMs: number;
}

export interface IdleSessionsOptions {
  connectString: string;
  sessions: number;
  /** Sessions connecting at once. Default 100. */
  batch?: number;
  /** How long to hold them idle, ms. Default 2000. */
  holdMs?: number;
  onProgress?: (opened: number) => void;
  /** Stops opening and holding: every session opened is closed before the promise rejects with ABORTED. */
  signal?: AbortSignal;
}

function gc(): void {
  // Only with --expose-gc; without it the figures include garbage not yet collected (reported as such).
  (globalThis as { gc?: () => void }).gc?.();
}

export async function measureIdleSessions(opts: IdleSessionsOptions): Promise<IdleSessionsResult> {
  const batch = opts.batch ?? 100;
  gc();
  const rssBefore = process.memoryUsage().rss;
  const clients: ZooKeeperClient[] = [];
  const t0 = performance.now();
  try {
    while (clients.length < opts.sessions) {
      if (opts.signal?.aborted === true) throw aborted(opts.signal, 'idle sessions');
      const n = Math.min(batch, opts.sessions - clients.length);
      const opened = await Promise.allSettled(
        Array.from({ length: n }, () => connectNode(opts.connectString, { sessionTimeoutMs: 30_000, connectTimeoutMs: 20_000 })),
      );
      for (const o of opened) if (o.status === 'fulfilled') clients.push(o.value);
      const failed = opened.find((o): o is PromiseRejectedResult => o.status === 'rejected');
      if (failed !== undefined) throw failed.reason;
      opts.onProgress?.(clients.length);
    }
    const openMs = performance.now() - t0;
    await sleep(opts.holdMs ?? 2000, systemClock, opts.signal);
    gc();
    const mem = process.memoryUsage();
    const t1 = performance.now();
    await Promise.all(clients.splice(0).map((c) => c.close()));
    const closeMs = performance.now() - t1;
    return {
      sessions: opts.sessions,
      rssBefore,
      rssWith: mem.rss,
      heapUsedWith: mem.heapUsed,
      perSession: (mem.rss - rssBefore) / opts.sessions,
      openMs,
      closeMs,
    };
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
  }
}

/**
 * Runs the measurement in a fresh Node process (idle-sessions-child.js next to this module, with --expose-gc),
 * so the RSS is the sessions' and a bare runtime's, not whatever the caller allocated before. Falls back to
 * this process when the compiled child entry is not there (running from TypeScript sources).
 */
export async function measureIdleSessionsIsolated(opts: IdleSessionsOptions): Promise<IdleSessionsResult & { isolated: boolean }> {
  const child = fileURLToPath(new URL('./idle-sessions-child.js', import.meta.url));
  if (!existsSync(child)) return { ...(await measureIdleSessions(opts)), isolated: false };
  const arg = JSON.stringify({ connectString: opts.connectString, sessions: opts.sessions, batch: opts.batch, holdMs: opts.holdMs });
  const { signal } = opts;
  if (signal?.aborted === true) throw aborted(signal, 'idle sessions');
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--expose-gc', child, arg], { stdio: ['ignore', 'pipe', 'pipe'] });
    // The child closes its sessions on SIGTERM; the promise settles only once it has exited, so nothing it opened
    // outlives an interrupted run.
    const stop = (): void => void proc.kill('SIGTERM');
    signal?.addEventListener('abort', stop, { once: true });
    let out = '';
    let err = '';
    proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      let nl: number;
      while ((nl = out.indexOf('\n')) >= 0) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        if (line.startsWith('progress ')) opts.onProgress?.(Number(line.slice(9)));
        else if (line.startsWith('{')) {
          try {
            resolve({ ...(JSON.parse(line) as IdleSessionsResult), isolated: true });
          } catch (e) {
            reject(e as Error);
          }
        }
      }
    });
    proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    proc.once('error', reject);
    proc.once('exit', (code) => {
      signal?.removeEventListener('abort', stop);
      if (signal?.aborted === true) reject(aborted(signal, 'idle sessions'));
      else if (code !== 0) reject(new Error(`idle-sessions child exited with ${code}: ${err.trim()}`));
    });
  });
}
