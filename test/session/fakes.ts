/**
 * Small helpers of the session's unit tests. Their transport and clock are the tests' own:
 * test/harness/memory-transport.ts (played by hand with golden bytes) and test/harness/manual-clock.ts.
 */

export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

export { fromHex } from '../harness/memory-transport.js';

/** Lets queued microtasks (promise reactions, the session's write coalescing) run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
}

export { loadGolden as golden } from '../protocol/golden.js';
