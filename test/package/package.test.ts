/**
 * The published package, checked the way users' toolchains see it: `npm pack` of the build, installed from the
 * tarball into a throwaway consumer project (pack.ts), then
 * - what the tarball holds: the build and the docs only, within a size budget, with no path of this machine;
 * - TypeScript consumers under moduleResolution node16, nodenext and bundler, each with an ESM and a CommonJS file,
 *   importing every entry, and `connect`/`ZooKeeperClient` with the same types whatever entry they come from;
 * - Node loading it by `import` and by `require` (require(esm), why `engines` says ^20.19 || >=22.12);
 * - esbuild bundling it for the node, neutral and browser platforms, and the neutral bundle running;
 * - @arethetypeswrong/cli (profile esm-only: the package ships no CommonJS build) and publint on the tarball.
 * No server: the checks stop before a connection is opened.
 */

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { publint } from 'publint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ts from 'typescript';
import { extract, runsInPackageTest } from '../docs/markdown-examples.js';
import { REPO_ROOT } from '../runtimes/run-runtime.js';
import { typeCheckProject, type SourceFileCache } from './consumer-typecheck.js';
import { packAndInstall, type PackedPackage } from './pack.js';

const run = promisify(execFile);

/**
 * Budget for the packed tarball: what it weighs now plus room to grow, so an accidental inclusion shows. Measured
 * at 494,292 bytes and 527 files once session renewal, the recipe foundation, `zkwire txnlog`/`snapshot` and the
 * interactive shell shipped (396,563 and 443 before them; 231 KB and 317 files before the recipes beyond locks, the
 * capture reader and `zkwire analyze`). Raised to 600,000 with the in-memory ZooKeeper (about 28 KB packed, 587,749
 * measured) and 613 files; files to 640. Raised to 680,000 bytes and 700 files with the lock bench's leader failover
 * (`--ensemble`, about 13 KB) and its multi-process runs (`--processes`, `bench worker`): 631,166 bytes, 655 files.
 * Raised to 720,000 bytes and 760 files with zkwire/kerberos and TestingKdc (about 40 KB packed): 682,165 bytes, 709 files.
 * Raised to 760,000 bytes and 800 files with the rest of issues #26, #27 and #30 landed together (the ensemble tracker
 * and host provider, ZooKeeper 3.4 compatibility, the CLI's secured connections and client configuration files, the
 * version-aware kit, the recipes' one back-off and deadline): 724,303 bytes before the last of them.
 * Raised to 880,000 bytes and 900 files with the operator's day (issue #29: export/import, find, cp/mv, setacl -R,
 * the admin server, txnlog --restore, the shell's zkCli.sh commands and data views, captures found on any port) and
 * Curator's queue family (#28): 822,506 bytes and 845 files measured.
 */
const MAX_PACKED_BYTES = 880_000;
const MAX_FILES = 900;
/**
 * What an application of the client and the mutex ships, bundled from the installed package (minified, gzip -9): a
 * guard against creep, a little above today's 26.5 KB (25.3 KB before session renewal and the recipe foundation,
 * which cost 1.2 KB between them). The figure, by area, and the 22 KB target live in `npm run bench:size` and
 * docs/benchmarks.md#what-an-application-ships-npm-run-benchsize.
 * Raised to 33 KB when issues #26, #27 and #30 landed together and the bundle measured 32,490 bytes (84.4 KB
 * minified before, 99.0 KB after): the ensemble tracker and host provider (on by default), ZooKeeper 3.4 feature
 * learning, the top-level `tls` option with its failure classification and plaintext probe, the run-time options
 * check, the recipes' back-off and deadline. Over the 27 KB the issues asked to keep: bringing it back down (features
 * off the default path) is open work, said in the closing note; this guard stops further creep meanwhile.
 * Lowered to 32,168 bytes (what `npm run bench:size` measured; the installed package bundles to 32,131) after the
 * session/transport and client/recipes sides were cut without dropping a feature: still over the 27 KB goal.
 * Raised to 34,644 bytes (`npm run bench:size`) for issue #28's client options, each measured on its own branch
 * against the main it merged into: create conveniences and the ACL provider +424, observability (diagnostics
 * channels, `stats()` with its percentiles) +901, retries, idempotent writes, guaranteed delete and
 * `requestTimeoutMs` +1,007, the compression hook +134 (gzip stays in zkwire/recipes); the supervised loop, the
 * damping and the proxies' skeleton 0. Whether these belong in the default bundle or behind separate imports is the
 * open part of #28 (said in the closing note); this guard stops anything further meanwhile.
 * Lowered to 34,069 bytes (`npm run bench:size`) with every option of #28 kept: `client.stats()` became the separate
 * import `collectStats(client)` (-337), the SASL login driver comes with the mechanism value (`saslMechanism`, -206),
 * the client's retry pause and the recipes' sleeps share one timer race (-37), one byte comparison (-3); the
 * allocation-free compression check +8. Still over the 32,168 before #28: docs/api.md#what-moved-off-the-client--mutex-bundle
 * keeps the decisions taken, and `npm run bench:size -- --price` what the remaining candidates would save.
 * Raised to 34,137 (+68) for the uncontended acquire's speed (#30 item 6): the client's feature snapshot kept between
 * reads (+47 of it: recipes read it on every create), a protected create's first try with no async layer, and the
 * recipes' createWithStat handing back the client's promise once create2 is known.
 * Lowered to 34,127 (-10) with the one frame splitter (#30 item 4): the FrameDecoder's own take with a skip, and an
 * error no longer clearing its chunk list field by field, paid for `drain()` and `keepPrefix`.
 * Lowered to 34,118 (-9) with the lock path's copies gone (#30 item 6): one request spec and one reply closure per
 * call in the client's send, no spread of a create's options on the protected path, of a watch notification or of a
 * watched read's result.
 */
const MAX_CLIENT_MUTEX_GZIP = 34_118;

/** Compiler and linter runs (tsc, esbuild, attw): seconds of CPU each, more than the default timeout on a loaded machine. */
const COMPILE_TIMEOUT_MS = 120_000;

const ENTRIES = ['zkwire', 'zkwire/portable', 'zkwire/node', 'zkwire/recipes', 'zkwire/discovery', 'zkwire/kerberos', 'zkwire/protocol', 'zkwire/tools', 'zkwire/testing', 'zkwire/testing/portable'];

/** An ESM consumer: every entry, and the one API whatever entry it is taken from. */
const ESM_CONSUMER = `
import { connect, streamSocketTransport, ZooKeeperClient, ZooKeeperError, InterProcessMutex, type ClientOptions } from 'zkwire';
import * as portable from 'zkwire/portable';
import * as node from 'zkwire/node';
import { LeaderLatch } from 'zkwire/recipes';
import { ServiceDiscovery } from 'zkwire/discovery';
import { ConversationDecoder, FrameDecoder, OpCode } from 'zkwire/protocol';
import { startTraceProxy, type CaptureEvent } from 'zkwire/tools';
import { InMemoryZooKeeper, killSession, startFaultProxy, TestingCluster, TestingServer, ZooKeeperNotInstalledError, type FaultProxy } from 'zkwire/testing';

// connect and ZooKeeperClient exist in every entry, with interchangeable types.
const fromRoot: (cs: string, o?: ClientOptions) => Promise<ZooKeeperClient> = connect;
const fromPortable: typeof fromRoot = portable.connect;
const fromNode: typeof fromRoot = node.connect;
const nodeAsPortable: typeof portable.connect = node.connect;
const portableAsNode: (cs: string, o?: ClientOptions) => Promise<node.ZooKeeperClient> = portable.connect;
const clientTypes: [portable.ZooKeeperClient, node.ZooKeeperClient] = [null as unknown as ZooKeeperClient, null as unknown as ZooKeeperClient];

export async function use(socketConnect: Parameters<typeof streamSocketTransport>[0]): Promise<void> {
  const zk = await connect('127.0.0.1:2181', { transport: streamSocketTransport(socketConnect) });
  const lock = new InterProcessMutex(zk, '/locks/a');
  const lease = await lock.acquire();
  await lease.release();
  new LeaderLatch(zk, '/latch');
  new ServiceDiscovery(zk, { basePath: '/services' });
  const err: ZooKeeperError | undefined = undefined;
  new FrameDecoder();
  new ConversationDecoder();
  const op: number = OpCode.create;
  const onEvent = (e: CaptureEvent): string => e.type;
  void startTraceProxy;
  const server: TestingServer = await TestingServer.start({ tickTime: 500 });
  const proxy: FaultProxy = await startFaultProxy(server.connectString);
  await killSession(zk);
  await using memory = new InMemoryZooKeeper({ tickTime: 500 });
  void [TestingCluster, ZooKeeperNotInstalledError, proxy, memory.connectString];
  void [fromPortable, fromNode, nodeAsPortable, portableAsNode, clientTypes, err, op, onEvent];
  await zk.close();
}
`;

/** CommonJS under nodenext: require(esm), which TypeScript allows there since 5.8. */
const CJS_REQUIRE_CONSUMER = `
import { connect, ZooKeeperClient } from 'zkwire';
import { FrameDecoder } from 'zkwire/protocol';
export const opened: (cs: string) => Promise<ZooKeeperClient> = connect;
export const decoder = new FrameDecoder();
`;

/** CommonJS under node16 (no require(esm) there): types by resolution-mode, values by dynamic import. */
const CJS_IMPORT_CONSUMER = `
import type { ZooKeeperClient } from 'zkwire' with { 'resolution-mode': 'import' };
export async function open(cs: string): Promise<ZooKeeperClient> {
  const { connect } = await import('zkwire');
  return connect(cs);
}
`;

/** A consumer that targets any runtime: only the portable entries, no Node types. */
const PORTABLE_CONSUMER = `
import { connect, streamSocketTransport, InterProcessMutex, type ZooKeeperClient } from 'zkwire';
import * as portable from 'zkwire/portable';
import { FrameDecoder } from 'zkwire/protocol';
import { InMemoryZooKeeper, killSession } from 'zkwire/testing/portable';
import { CuratorCache } from 'zkwire/recipes';
import { serviceInstance } from 'zkwire/discovery';
export const recipesAndDiscovery = [CuratorCache, serviceInstance];
export async function open(socketConnect: Parameters<typeof streamSocketTransport>[0]): Promise<ZooKeeperClient> {
  const zk: portable.ZooKeeperClient = await connect('zk:2181', { transport: streamSocketTransport(socketConnect) });
  new InterProcessMutex(zk, '/locks/a');
  new FrameDecoder();
  return zk;
}
// zkwire/testing/portable: the in-memory server and killSession, with no Node types (workerd gets it as zkwire/testing).
export async function inMemory(): Promise<void> {
  await using server = new InMemoryZooKeeper();
  await using zk = await connect(server.connectString, { transport: server.transport });
  await killSession(zk);
  server.advance(1000);
}
`;

interface Resolution {
  readonly name: string;
  readonly moduleResolution: 'node16' | 'nodenext' | 'bundler';
  readonly module: string;
  readonly files: Readonly<Record<string, string>>;
  readonly types: readonly string[];
  readonly lib: readonly string[];
}

// The package's types use `AsyncDisposable` (for `await using`): consumers need ESNext.Disposable in lib, or
// @types/node, which declares it.
const RESOLUTIONS: readonly Resolution[] = [
  { name: 'node16', moduleResolution: 'node16', module: 'node16', files: { 'esm.mts': ESM_CONSUMER, 'cjs.cts': CJS_IMPORT_CONSUMER }, types: ['node'], lib: ['ES2022'] },
  { name: 'nodenext', moduleResolution: 'nodenext', module: 'nodenext', files: { 'esm.mts': ESM_CONSUMER, 'cjs.cts': CJS_REQUIRE_CONSUMER }, types: ['node'], lib: ['ES2022'] },
  { name: 'bundler', moduleResolution: 'bundler', module: 'preserve', files: { 'esm.mts': ESM_CONSUMER, 'cjs.cts': CJS_REQUIRE_CONSUMER }, types: ['node'], lib: ['ES2022'] },
  { name: 'bundler, portable entries only, no @types/node', moduleResolution: 'bundler', module: 'preserve', files: { 'esm.mts': PORTABLE_CONSUMER }, types: [], lib: ['ES2022', 'ESNext.Disposable', 'DOM'] },
];

let pkg: PackedPackage;

beforeAll(async () => {
  pkg = await packAndInstall();
}, COMPILE_TIMEOUT_MS);

afterAll(() => pkg?.remove());

describe('the tarball', () => {
  it('holds the build, the README and the CHANGELOG, and nothing else', () => {
    const unexpected = pkg.files
      .map((f) => f.path)
      .filter((p) => !/^(dist\/.+\.(js|d\.ts)|README\.md|CHANGELOG\.md|LICENSE|package\.json)$/.test(p));
    expect(unexpected).toEqual([]);
    const paths = pkg.files.map((f) => f.path);
    // dist/tools/bench is `zkwire bench`; the repository's bench/ and test/ machinery must not be there.
    expect(paths.filter((p) => /\.map$|\/fuzz\/|golden|lock-scale|^dist\/(test|bench)\//.test(p))).toEqual([]);
    expect(paths).toContain('dist/cli/main.js');
  });

  it(`stays within the size budget (${MAX_PACKED_BYTES} bytes packed, ${MAX_FILES} files)`, () => {
    expect(pkg.packedSize).toBeLessThanOrEqual(MAX_PACKED_BYTES);
    expect(pkg.files.length).toBeLessThanOrEqual(MAX_FILES);
  });

  it('names no path of this machine', () => {
    const installed = path.join(pkg.consumer, 'node_modules', 'zkwire');
    const machinePaths = [REPO_ROOT, path.dirname(REPO_ROOT) + path.sep, os.homedir() + path.sep];
    const hits: string[] = [];
    for (const { path: file } of pkg.files) {
      const text = fs.readFileSync(path.join(installed, file), 'utf8');
      for (const p of machinePaths) if (text.includes(p)) hits.push(`${file}: ${p}`);
    }
    expect(hits).toEqual([]);
  });

  it('engines states the Node versions where require(esm) works, since no CommonJS build is shipped', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(pkg.consumer, 'node_modules', 'zkwire', 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    expect(manifest.engines.node).toBe('^20.19.0 || >=22.12.0');
  });
});

describe('TypeScript consumers', () => {
  // TypeScript's lib files and @types/node, parsed once for the four resolutions (consumer-typecheck.ts).
  const parsedToolchain: SourceFileCache = new Map();
  it.each(RESOLUTIONS.map((r, i) => ({ ...r, i })))('type-check under moduleResolution $name', { timeout: COMPILE_TIMEOUT_MS }, async (r) => {
    const dir = path.join(pkg.consumer, `ts-${r.i}`);
    fs.mkdirSync(dir, { recursive: true });
    for (const [file, text] of Object.entries(r.files)) fs.writeFileSync(path.join(dir, file), text);
    const tsconfig = {
      compilerOptions: {
        module: r.module,
        moduleResolution: r.moduleResolution,
        target: 'ES2022',
        lib: r.lib,
        types: r.types,
        strict: true,
        noEmit: true,
        // The package's own declarations are checked too: a broken .d.ts fails here. TypeScript's lib files and
        // @types/node are not (consumer-typecheck.ts).
        skipLibCheck: false,
        skipDefaultLibCheck: true,
      },
      files: Object.keys(r.files),
    };
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
    expect(typeCheckProject(dir, parsedToolchain)).toBe('');
  });
});

describe('Node', () => {
  it('loads every entry by import and by require, and the portable connect asks for a transport', async () => {
    const script = path.join(pkg.consumer, 'load.cjs');
    fs.writeFileSync(
      script,
      `
const entries = ${JSON.stringify(ENTRIES)};
(async () => {
  const out = {};
  for (const e of entries) {
    const imported = await import(e);
    const required = require(e);
    out[e] = { imported: Object.keys(imported).length, required: Object.keys(required).length, connect: typeof imported.connect };
  }
  out.rootIsNode = typeof require('zkwire').nodeTransport === 'function';
  const portable = await import('zkwire/portable');
  out.portableError = await portable.connect('127.0.0.1:1').then(() => 'connected', (e) => e.code + ': ' + e.message);
  console.log(JSON.stringify(out));
})();
`,
    );
    const { stdout } = await run(process.execPath, [script], { cwd: pkg.consumer });
    const out = JSON.parse(stdout) as Record<string, { imported: number; required: number; connect: string }> & {
      rootIsNode: boolean;
      portableError: string;
    };
    for (const e of ENTRIES) {
      expect(out[e]!.imported, e).toBeGreaterThan(0);
      expect(out[e]!.required, e).toBe(out[e]!.imported);
    }
    for (const e of ['zkwire', 'zkwire/portable', 'zkwire/node']) expect(out[e]!.connect, e).toBe('function');
    expect(out.rootIsNode).toBe(true);
    expect(out.portableError).toMatch(/^BAD_ARGUMENT: .*options\.transport/);
  });
});

describe('the testing kit in a user app', () => {
  // docs/testing.md's examples, as a user would have them: compiled, then run with node (node:test files) and with
  // vitest, against servers they start themselves from this machine's ZooKeeper.
  const examples = extract('docs/testing.md');
  const nodeTests = examples.filter(runsInPackageTest);
  const vitestTests = examples.filter((e) => e.source.includes("from 'vitest'"));
  const js = (source: string): string =>
    ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;

  it('has node:test and vitest examples to run', () => {
    expect(nodeTests.length).toBeGreaterThanOrEqual(2);
    expect(vitestTests.length).toBeGreaterThanOrEqual(1);
  });

  it('runs the node:test examples', { timeout: COMPILE_TIMEOUT_MS }, async () => {
    for (const e of nodeTests) {
      const file = path.join(pkg.consumer, e.file.replace(/\.mts$/, '.mjs'));
      fs.writeFileSync(file, js(e.source));
      const result = await run(process.execPath, [file], { cwd: pkg.consumer, timeout: 60_000 }).then(
        (r) => ({ ok: true, output: r.stdout }),
        (err: { stdout: string; stderr: string; message: string }) => ({ ok: false, output: `${err.message}\n${err.stdout}${err.stderr}` }),
      );
      expect(result.ok, `${e.where}\n${result.output}`).toBe(true);
      expect(result.output, e.where).toMatch(/^# pass [1-9]/m);
      expect(result.output, e.where).toMatch(/^# fail 0$/m);
    }
  });

  it('runs the vitest examples with vitest', { timeout: COMPILE_TIMEOUT_MS }, async () => {
    const dir = path.join(pkg.consumer, 'vitest-app');
    fs.mkdirSync(dir, { recursive: true });
    fs.symlinkSync(path.join(REPO_ROOT, 'node_modules', 'vitest'), path.join(pkg.consumer, 'node_modules', 'vitest'), 'dir');
    fs.writeFileSync(path.join(dir, 'vitest.config.mjs'), "export default { test: { include: ['*.test.mjs'] } };\n");
    for (const e of vitestTests) fs.writeFileSync(path.join(dir, e.file.replace(/\.mts$/, '.test.mjs')), js(e.source));
    const vitest = path.join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
    const result = await run(process.execPath, [vitest, 'run', '--root', dir], {
      cwd: dir,
      timeout: 90_000,
      env: { ...process.env, NO_COLOR: '1', CI: '1' },
    }).then(
      (r) => ({ ok: true, output: `${r.stdout}${r.stderr}` }),
      (err: { stdout: string; stderr: string; message: string }) => ({ ok: false, output: `${err.message}\n${err.stdout}${err.stderr}` }),
    );
    expect(result.ok, result.output).toBe(true);
    expect(result.output).toMatch(/Tests\s+\d+ passed/);
    expect(result.output).not.toMatch(/failed|skipped/);
  });
});

describe('esbuild', () => {
  const entry = `
import { connect, streamSocketTransport, InterProcessMutex } from 'zkwire';
import { FrameDecoder } from 'zkwire/protocol';
export const result = connect('127.0.0.1:1').then(() => 'connected', (e) => e.code);
export { streamSocketTransport, InterProcessMutex, FrameDecoder };
`;

  it.each(['node', 'neutral', 'browser'] as const)('bundles the package for platform %s', { timeout: COMPILE_TIMEOUT_MS }, async (platform) => {
    const entryFile = path.join(pkg.consumer, `bundle-entry-${platform}.mjs`);
    const outfile = path.join(pkg.consumer, `bundle-${platform}.mjs`);
    fs.writeFileSync(entryFile, entry);
    const out = await build({
      entryPoints: [entryFile],
      bundle: true,
      format: 'esm',
      platform,
      outfile,
      metafile: true,
      logLevel: 'silent',
    });
    expect(out.errors).toEqual([]);
    const inputs = Object.keys(out.metafile.inputs);
    if (platform === 'node') {
      expect(inputs.some((i) => i.endsWith('zkwire/dist/node.js'))).toBe(true);
    } else {
      // The portable build: no Node module anywhere in it.
      expect(inputs.some((i) => i.endsWith('zkwire/dist/node.js'))).toBe(false);
      expect(fs.readFileSync(outfile, 'utf8')).not.toMatch(/from\s*["']node:/);
      // Without a transport the bundled connect refuses at once, with the typed error.
      const bundled = (await import(outfile)) as { result: Promise<string> };
      expect(await bundled.result).toBe('BAD_ARGUMENT');
    }
  });
});

describe('bundle size', () => {
  it(`the client and InterProcessMutex bundle to at most ${MAX_CLIENT_MUTEX_GZIP} bytes minified and gzipped`, { timeout: COMPILE_TIMEOUT_MS }, async () => {
    const entryFile = path.join(pkg.consumer, 'size-entry.mjs');
    fs.writeFileSync(entryFile, "export { ZooKeeperClient, InterProcessMutex } from 'zkwire';\n");
    const out = await build({ entryPoints: [entryFile], bundle: true, minify: true, format: 'esm', platform: 'node', write: false, logLevel: 'silent' });
    const bundle = out.outputFiles[0]!.contents;
    // The bundle really is the client and the mutex, not an empty module that would pass any budget.
    expect(new TextDecoder().decode(bundle)).toContain('InterProcessMutex');
    expect(gzipSync(bundle, { level: 9 }).length).toBeLessThanOrEqual(MAX_CLIENT_MUTEX_GZIP);
  });
});

describe('package linters', () => {
  it('@arethetypeswrong/cli finds no problem (profile esm-only)', { timeout: COMPILE_TIMEOUT_MS }, async () => {
    const attw = path.join(REPO_ROOT, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');
    const result = await run(process.execPath, [attw, pkg.tarball, '--profile', 'esm-only', '--no-definitely-typed', '--format', 'ascii', '--no-color']).then(
      (r) => ({ code: 0, output: r.stdout }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, output: `${e.stdout}${e.stderr}` }),
    );
    expect(result.code, result.output).toBe(0);
  });

  it('publint reports nothing, suggestions included', async () => {
    const tarball = fs.readFileSync(pkg.tarball);
    const { messages } = await publint({
      pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) as ArrayBuffer },
      level: 'suggestion',
      strict: true,
    });
    expect(messages).toEqual([]);
  });
});
