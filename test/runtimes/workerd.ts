/**
 * Runs the workerd smoke Worker (workerd-worker.ts) against a ZooKeeper: bundles it with esbuild from the consumer
 * project that has the packed package installed (test/package/pack.ts), writes a workerd config whose outbound
 * network service allows loopback (workerd's default `internet` service allows only public addresses, and the test
 * server listens on 127.0.0.1), starts `workerd serve` on a port the kernel picks (reported on --control-fd), and
 * fetches the Worker once. The workerd binary comes from the `workerd` dev dependency.
 */

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import type { PackedPackage } from '../package/pack.js';
import { REPO_ROOT } from './run-runtime.js';

const WORKER_FILES = ['test/runtimes/workerd-worker.ts', 'test/runtimes/smoke.ts', 'test/runtimes/in-memory-smoke.ts'];

function config(workerFile: string): string {
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    # Replaces the default outbound service, which refuses private and loopback addresses.
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);

const worker :Workerd.Worker = (
  modules = [(name = "worker", esModule = embed ${JSON.stringify(workerFile)})],
  compatibilityDate = "2024-09-23",
);
`;
}

/** Bundles the Worker against the installed package; returns the directory holding worker.js and config.capnp. */
export async function prepareWorker(pkg: PackedPackage): Promise<string> {
  const dir = path.join(pkg.consumer, 'workerd');
  for (const file of WORKER_FILES) {
    const target = path.join(pkg.consumer, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(REPO_ROOT, file), target);
  }
  fs.mkdirSync(dir, { recursive: true });
  const bundled = await build({
    entryPoints: [path.join(pkg.consumer, 'test/runtimes/workerd-worker.ts')],
    plugins: [
      {
        // The worker names ../../src/index.js for the type-checker; the Worker gets the installed package instead.
        name: 'packed-zkwire',
        setup(b) {
          b.onResolve({ filter: /\/src\/index\.js$/ }, async () => {
            const resolved = await b.resolve('zkwire', { kind: 'import-statement', resolveDir: pkg.consumer });
            if (resolved.errors.length > 0) return { errors: resolved.errors };
            return { path: resolved.path };
          });
          b.onResolve({ filter: /\/src\/discovery\.js$/ }, async () => {
            const resolved = await b.resolve('zkwire/discovery', { kind: 'import-statement', resolveDir: pkg.consumer });
            if (resolved.errors.length > 0) return { errors: resolved.errors };
            return { path: resolved.path };
          });
          // The in-memory server: `zkwire/testing`, which resolves to its portable part under the workerd condition.
          b.onResolve({ filter: /\/src\/testing-portable\.js$/ }, async () => {
            const resolved = await b.resolve('zkwire/testing', { kind: 'import-statement', resolveDir: pkg.consumer });
            if (resolved.errors.length > 0) return { errors: resolved.errors };
            return { path: resolved.path };
          });
        },
      },
    ],
    metafile: true,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    external: ['cloudflare:sockets'],
    outfile: path.join(dir, 'worker.js'),
    logLevel: 'silent',
  });
  const fromPackage = Object.keys(bundled.metafile.inputs).filter((input) => input.includes('node_modules/zkwire/dist/'));
  if (!fromPackage.some((input) => input.endsWith('dist/index.js'))) {
    throw new Error(`the Worker bundle did not take zkwire from the packed package: ${Object.keys(bundled.metafile.inputs).join(', ')}`);
  }
  fs.writeFileSync(path.join(dir, 'config.capnp'), config('worker.js'));
  return dir;
}

export interface WorkerdRun {
  output: unknown;
  stderr: string;
}

/** Starts workerd, waits for it to report its port, fetches the Worker once, stops workerd. */
export async function runWorkerd(dir: string, connectString: string, timeoutMs: number): Promise<WorkerdRun> {
  const binary = path.join(REPO_ROOT, 'node_modules', '.bin', 'workerd');
  const child = spawn(binary, ['serve', 'config.capnp', '--control-fd=3'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let control = '';
      const fail = (why: string): void => reject(new Error(`workerd ${why}\n${stderr}`));
      (child.stdio[3] as NodeJS.ReadableStream).setEncoding('utf8');
      (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: string) => {
        control += chunk;
        for (const line of control.split('\n')) {
          if (line.trim() === '') continue;
          const message = JSON.parse(line) as { event?: string; socket?: string; port?: number };
          if (message.event === 'listen' && message.socket === 'http' && message.port !== undefined) resolve(message.port);
        }
      });
      child.once('exit', (code, sig) => fail(`exited (${code ?? sig}) before listening`));
      child.once('error', (err) => fail(`did not start: ${err.message}`));
      signal.addEventListener('abort', () => fail(`reported no listening port within ${timeoutMs} ms`), { once: true });
    });
    const response = await fetch(`http://127.0.0.1:${port}/?connect=${encodeURIComponent(connectString)}`, { signal });
    const text = await response.text();
    if (!response.ok) throw new Error(`workerd answered ${response.status}: ${text}\n${stderr}`);
    return { output: JSON.parse(text) as unknown, stderr };
  } finally {
    const exited = new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once('exit', resolve)));
    child.kill('SIGTERM');
    await exited;
  }
}
