/**
 * The chaos run's worker in a process of its own, so the run can pause a whole client process (SIGSTOP) past its
 * session timeout, as a long GC pause or a stopped VM would, while everyone else runs on. It is a small service on
 * one client, as docs/watches-and-sessions.md shows one: a GroupMember, a LeaderLatch candidate, a CuratorCache of
 * the chaos tree, and a mutex loop on one of the run's mutexes. It runs on the built package (dist/):
 * paused-process.ts transpiles this file and points its import there.
 *
 * It talks over stdio in JSON lines. Out (stdout), what it does, so the parent's checks cover it:
 *   {t:'state', to, event, newSession, session}   every change of its client's state, with the session after it
 *   {t:'enter', id, lock, token, resource}         a holder (mutex holder, or leader) enters the fenced resource
 *   {t:'write', id}                                 that holder writes inside
 *   {t:'exit', id}                                  that holder leaves
 *   {t:'report', session, state, members, tree}     answer to 'report': what its member and cache see now
 *   {t:'quiet', ...figures} / {t:'stopped'}         answers to 'quiet' and 'stop'
 * In (stdin): 'quiet' (stop the mutex loop and leave the election), 'report', 'stop' (leave the group, close
 * everything, exit 0). The end of stdin (the parent died) is a 'stop'.
 */

import readline from 'node:readline';
import type { WorkerProcessOptions } from './paused-process.js';
import { connect, InterProcessMutex, ZooKeeperError, type ZooKeeperClient } from '../../src/node.js';
import { CuratorCache, GroupMember, LeaderLatch } from '../../src/recipes/index.js';

/** The parent's options, less the resources it keeps (paused-process.ts): they come as JSON in argv[2]. */
type Config = Omit<WorkerProcessOptions, 'locks' | 'election'>;

const config = JSON.parse(process.argv[2] ?? '{}') as Config;
const T = config.sessionTimeoutMs;
const send = (line: Record<string, unknown>): void => void process.stdout.write(`${JSON.stringify(line)}\n`);
const quiet = new AbortController();
const figures = { locks: 0, leaderships: 0, renewals: 0, failures: {} as Record<string, number> };
let nextId = 1;

function failed(err: unknown): void {
  const code = err instanceof ZooKeeperError ? err.code : 'UNTYPED';
  figures.failures[code] = (figures.failures[code] ?? 0) + 1;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

let zk: ZooKeeperClient;
for (;;) {
  try {
    zk = await connect(config.connectString, { sessionTimeoutMs: T, connectTimeoutMs: 2 * T });
    break;
  } catch {
    await sleep(200);
  }
}
zk.onStateChange(({ to, event, newSession }) => send({ t: 'state', to, event, newSession, session: zk.sessionIdHex.toLowerCase() }));
send({ t: 'state', to: zk.state, session: zk.sessionIdHex.toLowerCase() });

const cache = new CuratorCache(zk, config.cacheRoot);
cache.start().catch(failed);
const member = new GroupMember(zk, config.groupPath, config.memberId);
member.start().catch(failed);

/** LeaderLatch candidacies until 'quiet'; a leader enters the election's fenced resource and steps down after a while. */
async function electionLoop(): Promise<void> {
  while (!quiet.signal.aborted) {
    const latch = new LeaderLatch(zk, config.electionPath, { id: config.memberId });
    let stepDown = (): void => undefined;
    const steppedDown = new Promise<void>((resolve) => (stepDown = resolve));
    latch.addListener((event) => {
      if (event.type !== 'isLeader') return;
      figures.leaderships++;
      const id = nextId++;
      send({ t: 'enter', id, resource: 'election', lock: config.electionPath, token: String(event.fencingToken) });
      const leave = (): void => send({ t: 'exit', id });
      if (event.signal.aborted) leave();
      else event.signal.addEventListener('abort', leave, { once: true });
      setTimeout(stepDown, 100 + Math.floor(Math.random() * 1400));
    });
    latch.start();
    await Promise.race([steppedDown, sleep(2 ** 31 - 1, quiet.signal)]);
    await latch.close().catch(failed);
  }
}

/** Mutex cycles until 'quiet': enter the fenced resource with the lease's token, a few writes, leave, release. */
async function lockLoop(): Promise<void> {
  const mutex = new InterProcessMutex(zk, config.mutexPath);
  while (!quiet.signal.aborted) {
    let lease;
    try {
      lease = await mutex.acquire({ timeoutMs: 3 * T, signal: quiet.signal });
    } catch (err) {
      if (!quiet.signal.aborted) failed(err);
      await sleep(100);
      continue;
    }
    if (!lease.acquired) continue;
    try {
      figures.locks++;
      if (lease.signal.aborted) continue;
      const id = nextId++;
      send({ t: 'enter', id, resource: 'locks', lock: config.mutexPath, token: String(lease.fencingToken) });
      for (let step = 0; step < 3 && !lease.signal.aborted; step++) {
        await sleep(20 + Math.floor(Math.random() * 40), lease.signal);
        if (!lease.signal.aborted) send({ t: 'write', id });
      }
      send({ t: 'exit', id });
    } finally {
      await lease.release().catch(failed);
    }
    await sleep(Math.floor(Math.random() * 200));
  }
}

const working = Promise.all([lockLoop(), electionLoop()]);
let stopping: Promise<void> | undefined;

async function stop(): Promise<void> {
  quiet.abort();
  await working;
  await member.close().catch(failed);
  await cache.close().catch(failed);
  await zk.close();
  send({ t: 'stopped' });
  process.exit(0);
}

const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line === 'quiet') {
    quiet.abort();
    void working.then(() => send({ t: 'quiet', ...figures, renewals: zk.sessionRenewals }));
  } else if (line === 'report') {
    let members: string[] | undefined;
    try {
      members = [...member.getCurrentMembers().keys()];
    } catch {
      members = undefined;
    }
    const tree = [...cache.stream()].map((n) => [n.path, `${n.stat.czxid}/${n.stat.mzxid}/${Buffer.from(n.data).toString('hex')}`]);
    send({ t: 'report', session: zk.sessionIdHex.toLowerCase(), state: zk.state, members, tree });
  } else if (line === 'stop') {
    stopping ??= stop();
  }
});
lines.on('close', () => void (stopping ??= stop()));
