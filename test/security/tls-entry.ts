/**
 * One TLS run under whichever runtime executes it (transpiled into a consumer project, see tls-runtimes.test.ts).
 * Usage: `<runtime> tls-entry.js <secureConnectString> <pkiDir> <transport>` with transport `default` (what the
 * package root gives the runtime) or `deno` (Deno.connectTls). Prints one JSON line {runtime, results}: each step
 * true, or what went wrong.
 */

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

type Root = typeof import('../../src/index.js');

interface RuntimeGlobals {
  Deno?: { args: string[]; version: { deno: string } };
  Bun?: { version: string };
  process?: { argv: string[]; version: string };
}

const globals = globalThis as unknown as RuntimeGlobals;
const runtime = globals.Bun !== undefined ? `bun ${globals.Bun.version}` : globals.Deno !== undefined ? `deno ${globals.Deno.version.deno}` : `node ${globals.process?.version ?? '?'}`;
const args = globals.Deno !== undefined ? globals.Deno.args : (globals.process?.argv.slice(2) ?? []);
const [connectString = '', pkiDir = '', transportName = 'default'] = args;
const ROOT: string = 'zkwire';
const zk = (await import(ROOT)) as Root;
const transport = transportName === 'deno' ? { transport: zk.denoTransport() } : {};
const [ca = '', cert = '', key = ''] = await Promise.all(['ca.pem', 'client.pem', 'client.key'].map((f) => readFile(join(pkiDir, f), 'utf8')));
const CLIENT_DN = 'CN=zkwire test client';
const results: Record<string, unknown> = {};

async function step(name: string, fn: () => Promise<unknown>): Promise<void> {
  try {
    const outcome = await fn();
    results[name] = outcome === undefined ? true : outcome;
  } catch (e) {
    results[name] = `${(e as { code?: string }).code ?? ''} ${e instanceof Error ? e.message : String(e)}`;
  }
}

/** connect()'s error code where it must fail ("connected" if it did not). */
async function failureCode(options: Parameters<Root['connect']>[1]): Promise<string> {
  try {
    const client = await zk.ZooKeeperClient.connect(connectString, { ...transport, connectTimeoutMs: 60_000, ...options });
    await client.close();
    return 'connected';
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
}

await step('x509 identity and ACL', async () => {
  const client = await zk.ZooKeeperClient.connect(connectString, { ...transport, sessionTimeoutMs: 10_000, tls: { ca, cert, key } });
  try {
    const identities = await client.whoAmI();
    if (!identities.some((i) => i.scheme === 'x509' && i.user === CLIENT_DN)) return `identities ${JSON.stringify(identities)}`;
    const path = `/tls-${Math.random().toString(36).slice(2)}`;
    await client.create(path, 'x', { acl: [{ perms: zk.Perms.ALL, id: { scheme: 'x509', id: CLIENT_DN } }] });
    await client.getData(path);
    await client.delete(path);
    return undefined;
  } finally {
    await client.close();
  }
});
await step('no client certificate: TLS_ERROR', async () => {
  const code = await failureCode({ tls: { ca } });
  return code === 'TLS_ERROR' ? undefined : code;
});
await step('untrusted server: TLS_ERROR', async () => {
  const code = await failureCode({ tls: { cert, key } });
  return code === 'TLS_ERROR' ? undefined : code;
});
// The plaintext probe is node:tls's (the default transport on all three); Deno.connect has none.
if (transportName === 'default') {
  await step('plaintext at the TLS port: TLS_ERROR', async () => {
    const code = await failureCode({});
    return code === 'TLS_ERROR' ? undefined : code;
  });
}
console.log(JSON.stringify({ runtime, results }));
