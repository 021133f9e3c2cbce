/**
 * Entry run by `deno run` (from deno.test.ts): the Deno.connect transport through the portable checks.
 * Usage: deno run --sloppy-imports --allow-net deno-probe.ts <host> <port> <closed-port>
 * Prints one JSON line {runtime, results}.
 */

import { denoTransport } from '../../src/transport/deno.js';
import { runStreamChecks } from './stream-checks.js';

declare const Deno: { args: string[]; version: { deno: string } };

const [host = '127.0.0.1', port = '2181', closedPort = '1'] = Deno.args;
const results = await runStreamChecks(denoTransport(), { host, port: Number(port) }, Number(closedPort));
console.log(JSON.stringify({ runtime: `deno ${Deno.version.deno}`, results }));
