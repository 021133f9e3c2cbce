/**
 * A process using the recipes that test/recipes/process-pause.test.ts stops with SIGSTOP past its session timeout:
 * a LeaderSelector (autoRequeue), a SharedValue and a SharedCount, an ephemeral PersistentNode and a PersistentTtlNode,
 * a DistributedBarrier waiter, and a DistributedAtomicLong incremented, a semaphore lease and the write lock of a
 * read/write lock taken twice a second. It imports 'zkwire' as an application does and writes one JSON status
 * line per round; it needs no code for an expiry. Usage: node worker.mjs <server> <base path>.
 */

import { connect, InterProcessReadWriteLock, InterProcessSemaphoreV2 } from 'zkwire';
import {
  DistributedAtomicLong,
  DistributedBarrier,
  LeaderSelector,
  PersistentNode,
  PersistentTtlNode,
  SharedCount,
  SharedValue,
} from 'zkwire/recipes';

const [server = '127.0.0.1:2181', base = '/paused'] = process.argv.slice(2);
const text = (b: Uint8Array): string => new TextDecoder().decode(b);
const emit = (line: object): void => void process.stdout.write(`${JSON.stringify(line)}\n`);
const stop = new AbortController();
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => stop.abort());

await using zk = await connect(server, { sessionTimeoutMs: 4_000 });
zk.onStateChange(({ to, event, newSession }) => emit({ state: to, event, newSession }));

let terms = 0;
await using selector = new LeaderSelector(
  zk,
  `${base}/election`,
  async ({ signal }) => {
    terms++;
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
  },
  { autoRequeue: true },
);
await selector.start();
await using value = new SharedValue(zk, `${base}/value`, 'v0');
const valueChanges: string[] = [];
value.addListener((e) => {
  if (e.type === 'valueChanged') valueChanges.push(text(e.value.value));
});
await value.start();
await using node = new PersistentNode(zk, `${base}/node`, 'mine');
await node.start();
await using count = new SharedCount(zk, `${base}/count`, 0);
await count.start();
await using ttl = new PersistentTtlNode(zk, `${base}/ttl`, 60_000, 'alive');
await ttl.start();
let barrierPassed = false;
void new DistributedBarrier(zk, `${base}/barrier`).waitOnBarrier({ signal: stop.signal }).then((passed) => (barrierPassed = passed), () => undefined);
const counter = new DistributedAtomicLong(zk, `${base}/counter`);
const semaphore = new InterProcessSemaphoreV2(zk, `${base}/semaphore`, 2);
const rw = new InterProcessReadWriteLock(zk, `${base}/rw`);

let increments = 0;
let leases = 0;
let writes = 0;
const errors: string[] = [];
while (!stop.signal.aborted) {
  try {
    if ((await counter.increment()).succeeded) increments++;
    await using lease = await semaphore.acquireOne({ timeoutMs: 1_000, signal: stop.signal });
    if (lease.acquired) leases++;
    await using write = await rw.writeLock.acquire({ timeoutMs: 1_000, signal: stop.signal });
    if (write.acquired) writes++;
  } catch (err) {
    if (!stop.signal.aborted) errors.push((err as { code?: string }).code ?? String(err));
  }
  emit({
    session: zk.sessionIdHex,
    leading: selector.hasLeadership(),
    terms,
    value: text(value.getValue()),
    valueChanges,
    count: count.getCount(),
    barrierPassed,
    increments,
    leases,
    writes,
    errors,
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
}
