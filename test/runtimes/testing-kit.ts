/**
 * The testing kit under one runtime's Node compatibility (run by runtimes.test.ts with node, deno and bun, from the
 * consumer project): a TestingServer, a client on it, killSession with the client renewing, a fault proxy pausing
 * the link, and close. Prints one JSON line: the steps done, then exits by itself.
 */
import { connect } from 'zkwire';
import { killSession, startFaultProxy, TestingServer } from 'zkwire/testing';

const steps: string[] = [];
const server = await TestingServer.start();
try {
  steps.push('server');
  const zk = await connect(server.connectString, { sessionTimeoutMs: 10_000 });
  const old = zk.sessionId;
  const lost = await killSession(zk);
  await zk.waitConnected();
  if (lost.event === 'LOST' && zk.sessionId !== old && zk.sessionRenewals === 1) steps.push('killSession');
  await zk.close();

  const proxy = await startFaultProxy(server.connectString);
  const viaProxy = await connect(proxy.connectString, { sessionTimeoutMs: 10_000 });
  await viaProxy.create(`/kit-${Date.now()}`, 'x');
  if (proxy.links().length === 1) steps.push('proxy');
  await viaProxy.close();
  await proxy.close();

  await server.stop();
  await server.restart();
  steps.push('restart');
} finally {
  await server.close();
}
const g = globalThis as { Deno?: { version: { deno: string } }; Bun?: { version: string } };
const runtime = g.Deno ? `deno ${g.Deno.version.deno}` : g.Bun ? `bun ${g.Bun.version}` : `node ${process.version}`;
console.log(JSON.stringify({ runtime, steps }));
