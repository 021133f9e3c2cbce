/**
 * The top-level `tls` option with a client certificate under Node, Deno and Bun, each loading the built package
 * through package.json `exports` from a throwaway consumer project (as the runtime smoke suite does): the x509
 * identity and an ACL naming it, and the refused handshakes (and, on the default transport, a plaintext client at
 * the TLS port) reported as TLS_ERROR before a 60 s deadline.
 */

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeConsumerProject, type ConsumerProject } from '../runtimes/consumer-project.js';
import { runScript, type Runtime } from '../runtimes/run-runtime.js';
import { makeTestPki, type TestPki } from './certs.js';
import type { TestingServer } from '../../src/testing/server.js';
import { startTlsOnlyZooKeeper } from './tls-server.js';

const DENO_FLAGS = ['run', '--allow-net', '--allow-read', '--allow-env'];
const VARIANTS: readonly { name: string; runtime: Runtime; flags: readonly string[]; transport: 'default' | 'deno' }[] = [
  { name: 'node', runtime: 'node', flags: [], transport: 'default' },
  { name: 'deno (node:tls through Node compatibility)', runtime: 'deno', flags: DENO_FLAGS, transport: 'default' },
  { name: 'deno (Deno.connectTls)', runtime: 'deno', flags: DENO_FLAGS, transport: 'deno' },
  { name: 'bun', runtime: 'bun', flags: [], transport: 'default' },
];

let project: ConsumerProject;
let pki: TestPki;
/** TLS only: nothing here talks to a plaintext port. */
let zk: TestingServer;

beforeAll(async () => {
  project = makeConsumerProject();
  pki = await makeTestPki();
  fs.writeFileSync(path.join(pki.dir, 'ca.pem'), pki.ca);
  fs.writeFileSync(path.join(pki.dir, 'client.pem'), pki.client.cert);
  fs.writeFileSync(path.join(pki.dir, 'client.key'), pki.client.key);
  zk = await startTlsOnlyZooKeeper(pki);
}, 90_000);

afterAll(async () => {
  await zk?.close();
  pki?.remove();
  project?.remove();
});

describe('tls with a client certificate on every runtime', () => {
  for (const variant of VARIANTS) {
    it(variant.name, { timeout: 60_000 }, async () => {
      const run = await runScript(variant.runtime, [...variant.flags, 'test/security/tls-entry.js', zk.connectString, pki.dir, variant.transport], {
        cwd: project.dir,
        timeoutMs: 50_000,
      });
      const { runtime, results } = run.output as { runtime: string; results: Record<string, unknown> };
      expect(runtime.startsWith(`${variant.runtime} `)).toBe(true);
      const failed = Object.entries(results).filter(([, outcome]) => outcome !== true);
      expect(failed, `${runtime}: ${JSON.stringify(failed)}`).toEqual([]);
      expect(Object.keys(results)).toHaveLength(variant.transport === 'default' ? 4 : 3);
    });
  }
});
