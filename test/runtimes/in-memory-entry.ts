/**
 * Entry of the in-memory smoke run under Node, Deno and Bun (transpiled into the consumer project): loads the
 * package as a user would (`zkwire`, `zkwire/testing`), prints one JSON line {runtime, results}, and must then exit
 * by itself (no timer or stream left behind).
 */

import { connect, InterProcessMutex } from 'zkwire';
import { ServiceDiscovery, serviceInstance } from 'zkwire/discovery';
import { InMemoryZooKeeper } from 'zkwire/testing';
import { runInMemorySmoke, type InMemoryExports } from './in-memory-smoke.js';

const g = globalThis as { Deno?: { version: { deno: string } }; Bun?: { version: string }; process?: { version: string } };
const runtime = g.Deno ? `deno ${g.Deno.version.deno}` : g.Bun ? `bun ${g.Bun.version}` : `node ${g.process?.version ?? '?'}`;
// The package's types (dist/) and the smoke file's (src/) are the same API from two builds: the compiler cannot
// tell, so the exports are handed over as the smoke file's type.
const exported = { connect, InterProcessMutex, InMemoryZooKeeper, ServiceDiscovery, serviceInstance } as unknown as InMemoryExports;
const results = await runInMemorySmoke(exported);
console.log(JSON.stringify({ runtime, results }));
