import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { curatorClasspath, DEBIAN_JAVA_DIR, requireJdk } from '../../src/tools/bench/curator-classpath.js';
import { compileJavaOnce } from '../../src/tools/bench/javac.js';
import { springCloudPayload } from '../../src/recipes/discovery/payloads.js';
import { serviceInstance, type ServiceInstance } from '../../src/recipes/discovery/service-instance.js';

/**
 * A real Apache Curator client in a child JVM (curator-peer/CuratorPeer.java), for interop tests: zkwire and
 * Curator must exclude each other on the same lock path. The Java source is compiled once per content hash into
 * os.tmpdir() against the Curator jars the CLI's `bench lock --vs curator` finds too (CURATOR_CLASSPATH, else Debian's
 * libcurator-recipes-java), then started once per peer. One peer is one Curator session driving its locks from one
 * thread, so two Curator holders need two peers.
 */

const SOURCE = fileURLToPath(new URL('./curator-peer/CuratorPeer.java', import.meta.url));
const PEER_DIR = fileURLToPath(new URL('./curator-peer/', import.meta.url));
/** Compiled with CuratorPeer: its discovery and namespace commands, and a payload class with Spring Cloud Zookeeper's name. */
const COMPANIONS = ['DiscoveryPeer.java', 'NamespacePeer.java', 'QueuePeer.java', 'org/springframework/cloud/zookeeper/discovery/ZookeeperInstance.java'];

/**
 * curator-x-discovery and the Jackson it serialises with (Debian's libcurator-discovery-java and its dependencies),
 * added to the class path curatorClasspath() finds. With CURATOR_CLASSPATH set, that path must hold them itself.
 */
const DISCOVERY_JARS = ['curator-x-discovery.jar', 'jackson-databind.jar', 'jackson-core.jar', 'jackson-annotations.jar'];

function discoveryClasspath(): string[] {
  if (process.env['CURATOR_CLASSPATH']) return [];
  const missing = DISCOVERY_JARS.filter((jar) => !fs.existsSync(path.join(DEBIAN_JAVA_DIR, jar)));
  if (missing.length > 0) {
    throw new Error(`Curator peer: ${DEBIAN_JAVA_DIR} lacks ${missing.join(', ')}; apt-get install libcurator-discovery-java (scripts/setup.sh)`);
  }
  return DISCOVERY_JARS.map((jar) => path.join(DEBIAN_JAVA_DIR, jar));
}

export type AcquireReply = { acquired: true; id: number; node: string } | { acquired: false };

export interface CuratorPeer {
  /** Curator's session id, hex, as printed at start. */
  readonly sessionId: string;
  /** Sends one command line and resolves with its reply line (rejects on an `error ...` reply). */
  command(line: string): Promise<string>;
  mutexAcquire(lockPath: string, timeoutMs: number, opts?: { revocable?: boolean }): Promise<AcquireReply>;
  semaphoreMutexAcquire(lockPath: string, timeoutMs: number): Promise<AcquireReply>;
  readAcquire(lockPath: string, timeoutMs: number): Promise<AcquireReply>;
  writeAcquire(lockPath: string, timeoutMs: number): Promise<AcquireReply>;
  semaphoreAcquire(semaphorePath: string, maxLeases: number, timeoutMs: number): Promise<AcquireReply>;
  release(id: number): Promise<void>;
  /** Curator's InterProcessMutex.getParticipantNodes(): full paths in lock order. */
  participants(lockPath: string): Promise<string[]>;
  /** Curator's Revoker.attemptRevoke on a lock node. */
  revoke(nodePath: string): Promise<void>;
  /** Starts a Curator LeaderLatch; returns its handle number (events: `latch n=<n> isLeader|notLeader`). */
  latchStart(latchPath: string, participantId: string): Promise<number>;
  latchHasLeadership(n: number): Promise<boolean>;
  /** LeaderLatch.await(timeout): true once leader, false on timeout. */
  latchAwait(n: number, timeoutMs: number): Promise<boolean>;
  /** LeaderLatch.getOurPath(), undefined before the node exists. */
  latchOurPath(n: number): Promise<string | undefined>;
  latchParticipants(n: number): Promise<{ id: string; isLeader: boolean }[]>;
  latchClose(n: number, mode?: 'SILENT' | 'NOTIFY_LEADER'): Promise<void>;
  /** Starts a Curator SharedCount; returns its handle number (events: `count n=<n> value=<v>`). */
  countStart(countPath: string, seed: number): Promise<number>;
  countGet(n: number): Promise<{ value: number; version: number }>;
  countSet(n: number, value: number): Promise<void>;
  /** SharedCount.trySetCount(previous = {version, value}, newValue). */
  countTrySet(n: number, newValue: number, previous: { version: number; value: number }): Promise<boolean>;
  countClose(n: number): Promise<void>;
  /** DistributedDoubleBarrier.enter(timeout) on a new barrier object for `barrierPath` (blocks the peer). */
  doubleBarrierEnter(barrierPath: string, memberQty: number, timeoutMs: number): Promise<boolean>;
  /** leave(timeout) on the barrier object of the last enter on `barrierPath`. */
  doubleBarrierLeave(barrierPath: string, timeoutMs: number): Promise<boolean>;
  /** Starts a Curator CuratorCache; returns its handle (event `cache n=<n> initialized` once loaded). */
  cacheStart(cachePath: string): Promise<number>;
  /** Every node the Curator cache holds: path → `czxid/mzxid/data hex`. */
  cacheDump(n: number): Promise<Map<string, string>>;
  cacheClose(n: number): Promise<void>;
  /** curator-x-discovery (DiscoveryPeer.java): a started ServiceDiscovery<ZookeeperInstance> on `basePath`; its handle. */
  sdStart(basePath: string): Promise<number>;
  sdRegister(n: number, spec: CuratorInstanceSpec): Promise<void>;
  sdUpdate(n: number, spec: CuratorInstanceSpec): Promise<void>;
  sdUnregister(n: number, spec: CuratorInstanceSpec): Promise<void>;
  sdNames(n: number): Promise<string[]>;
  /** queryForInstances(name), each instance as Curator deserialised it. */
  sdQuery(n: number, name: string): Promise<CuratorInstanceView[]>;
  sdQueryOne(n: number, name: string, id: string): Promise<CuratorInstanceView | null>;
  /** JsonInstanceSerializer.serialize (compatible mode) of the instance Curator's builder makes from `spec`. */
  sdSerialize(spec: CuratorInstanceSpec): Promise<Uint8Array>;
  /** JsonInstanceSerializer.deserialize of `bytes`. */
  sdDeserialize(bytes: Uint8Array): Promise<CuratorInstanceView>;
  /** A started ServiceCache for `name` (events `scache n=<m> changed`); its handle. */
  sdCacheStart(n: number, name: string): Promise<number>;
  sdCacheDump(m: number): Promise<CuratorInstanceView[]>;
  sdCacheClose(m: number): Promise<void>;
  sdClose(n: number): Promise<void>;
  /** Writes `data` at `path` in `namespace` (null: none), gzipped with Curator's `.compressed()` when `gzip`. */
  nsWrite(namespace: string | null, path: string, data: Uint8Array, gzip: boolean): Promise<void>;
  /** Reads `path` in `namespace`, through Curator's `.decompressed()` when `gzip` (rejects with Curator's error). */
  nsRead(namespace: string | null, path: string, gzip: boolean): Promise<Uint8Array>;
  /** SimpleDistributedQueue.offer on `path`. */
  sqOffer(path: string, data: Uint8Array): Promise<void>;
  /** SimpleDistributedQueue.poll(timeout): the head's bytes, or null when none came in time. */
  sqPoll(path: string, timeoutMs: number): Promise<Uint8Array | null>;
  /**
   * A started Curator queue (QueueBuilder, raw-byte items, puts in the foreground); its handle. With `consume`, every
   * item its consumer gets arrives as an event `queue n=<n> item=<b64>` (queueItems reads them).
   */
  queueStart(kind: 'plain' | 'id' | 'priority' | 'delay', path: string, opts: { lockPath?: string; consume: boolean }): Promise<number>;
  /** put (one item) or putMulti (several) on queue `n`; `arg` is the id, priority or time of those flavours. */
  queuePut(n: number, items: readonly Uint8Array[], arg?: string | number): Promise<void>;
  /** DistributedIdQueue.remove(id): how many it removed. */
  queueRemove(n: number, id: string): Promise<number>;
  /** The items queue `n`'s consumer has had so far, in order. */
  queueItems(n: number): Uint8Array[];
  queueClose(n: number): Promise<void>;
  /** Unsolicited `event ...` lines seen so far (without the `event ` prefix). */
  readonly events: readonly string[];
  /** Resolves when an event line matching `pattern` has arrived (including earlier ones). */
  waitForEvent(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Ends the peer politely: Curator closes its session, so its ephemeral nodes go at once. */
  close(): Promise<void>;
  /** Kills the JVM: its session stays until the server expires it. */
  kill(): Promise<void>;
}

/** An instance for the Java side to build with Curator's ServiceInstanceBuilder (payload: a ZookeeperInstance). */
export interface CuratorInstanceSpec {
  name: string;
  id: string;
  address?: string | null;
  port?: number | null;
  sslPort?: number | null;
  payload?: { id: string; name: string; metadata: Record<string, string> } | null;
  registrationTimeUTC: number;
  serviceType: 'DYNAMIC' | 'STATIC' | 'PERMANENT' | 'DYNAMIC_SEQUENTIAL';
  uriSpec?: string | null;
  enabled?: boolean;
}

/** What Curator's builder makes of a spec, made by ours (serviceInstance() with a Spring Cloud payload). */
export function instanceFromSpec(spec: CuratorInstanceSpec): ServiceInstance {
  return serviceInstance({
    name: spec.name,
    id: spec.id,
    address: spec.address ?? null,
    port: spec.port ?? null,
    sslPort: spec.sslPort ?? null,
    payload: spec.payload ? springCloudPayload(spec.payload) : null,
    registrationTimeUTC: spec.registrationTimeUTC,
    serviceType: spec.serviceType,
    uriSpec: spec.uriSpec ?? null,
    enabled: spec.enabled ?? true,
  });
}

/** An instance as Curator holds it after deserialising: every field, the payload's class, and buildUriSpec(). */
export interface CuratorInstanceView {
  name: string;
  id: string;
  address: string | null;
  port: number | null;
  sslPort: number | null;
  payload: { class: string; id: string; name: string; metadata: Record<string, string> } | null;
  registrationTimeUTC: number;
  serviceType: string | null;
  uriSpec: [string, boolean][] | null;
  enabled: boolean;
  uri: string;
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64');
const unb64 = (text: string): unknown => JSON.parse(Buffer.from(text, 'base64').toString('utf8'));

/** A queue item on the peer's line protocol: base64, `-` when empty. */
const itemB64 = (data: Uint8Array): string => (data.length === 0 ? '-' : Buffer.from(data).toString('base64'));
const itemBytes = (text: string): Uint8Array => (text === '-' ? new Uint8Array(0) : new Uint8Array(Buffer.from(text, 'base64')));

let compiled: { classes: string; classpath: string; java: string } | undefined;

/** CuratorPeer compiled (once per content, see compileJavaOnce) against the Curator jars curatorClasspath() finds. */
function compileCuratorPeer(): { classes: string; classpath: string; java: string } {
  if (compiled !== undefined) return compiled;
  const jdk = requireJdk();
  const classpath = [curatorClasspath(), ...discoveryClasspath()].join(path.delimiter);
  const companions = COMPANIONS.map((file) => ({ path: file, source: fs.readFileSync(path.join(PEER_DIR, file), 'utf8') }));
  const classes = compileJavaOnce({ className: 'CuratorPeer', source: fs.readFileSync(SOURCE, 'utf8'), classpath, javac: jdk.javac, companions });
  compiled = { classes, classpath, java: jdk.java };
  return compiled;
}

/** Starts a Curator client on `connectString` and waits until it is connected. */
export async function startCuratorPeer(
  connectString: string,
  opts: { sessionTimeoutMs?: number; startTimeoutMs?: number } = {},
): Promise<CuratorPeer> {
  const { classes, classpath, java } = compileCuratorPeer();
  const child = spawn(
    java,
    [
      '-Xshare:auto',
      '-XX:TieredStopAtLevel=1',
      '-cp',
      [classes, classpath].join(path.delimiter),
      'CuratorPeer',
      connectString,
      String(opts.sessionTimeoutMs ?? 6000),
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const peer = new PeerProcess(child);
  const ready = await peer.nextReply(opts.startTimeoutMs ?? 30_000);
  const match = /^ready session=(0x[0-9a-f]+)$/.exec(ready);
  if (match === null) {
    await peer.kill();
    throw new Error(`Curator peer did not start: ${ready}\n${peer.stderr}`);
  }
  peer.sessionId = match[1] as string;
  return peer;
}

const ALL_PEERS = new Set<PeerProcess>();
process.once('exit', () => {
  for (const peer of ALL_PEERS) peer.child.kill('SIGKILL');
});

class PeerProcess implements CuratorPeer {
  sessionId = '';
  stderr = '';
  readonly events: string[] = [];
  private buffered = '';
  private readonly replies: string[] = [];
  private readonly waiting: { resolve: (line: string) => void; reject: (err: Error) => void }[] = [];
  private readonly eventWaiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  private exited = false;
  private readonly exit: Promise<void>;
  /** Commands are serialised: the peer answers in order, one line each. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    ALL_PEERS.add(this);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => this.onData(chunk));
    child.stderr.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-20_000);
    });
    this.exit = new Promise((resolve) => {
      child.once('exit', () => {
        this.exited = true;
        ALL_PEERS.delete(this);
        for (const w of this.waiting.splice(0)) w.reject(new Error(`Curator peer exited\n${this.stderr}`));
        resolve();
      });
    });
    // a test that already failed must not also crash on EPIPE
    child.stdin.on('error', () => {});
  }

  private onData(chunk: string): void {
    this.buffered += chunk;
    let nl: number;
    while ((nl = this.buffered.indexOf('\n')) >= 0) {
      const line = this.buffered.slice(0, nl).replace(/\r$/, '');
      this.buffered = this.buffered.slice(nl + 1);
      if (line.startsWith('event ')) {
        const event = line.slice('event '.length);
        this.events.push(event);
        for (const w of [...this.eventWaiters]) {
          if (w.pattern.test(event)) {
            this.eventWaiters.splice(this.eventWaiters.indexOf(w), 1);
            w.resolve(event);
          }
        }
        continue;
      }
      const waiter = this.waiting.shift();
      if (waiter) waiter.resolve(line);
      else this.replies.push(line);
    }
  }

  nextReply(timeoutMs: number): Promise<string> {
    const early = this.replies.shift();
    if (early !== undefined) return Promise.resolve(early);
    if (this.exited) return Promise.reject(new Error(`Curator peer exited\n${this.stderr}`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const i = this.waiting.indexOf(entry);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(new Error(`Curator peer gave no reply within ${timeoutMs} ms\n${this.stderr}`));
      }, timeoutMs);
      const entry = {
        resolve: (line: string) => {
          clearTimeout(timer);
          resolve(line);
        },
        reject: (err: Error) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      this.waiting.push(entry);
    });
  }

  command(line: string, replyTimeoutMs = 60_000): Promise<string> {
    const run = async (): Promise<string> => {
      this.child.stdin.write(`${line}\n`);
      const reply = await this.nextReply(replyTimeoutMs);
      if (reply.startsWith('error ')) throw new Error(`Curator peer: ${line} -> ${reply}`);
      return reply;
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async acquire(line: string, timeoutMs: number): Promise<AcquireReply> {
    const reply = await this.command(line, timeoutMs + 30_000);
    if (reply === 'timeout') return { acquired: false };
    const match = /^acquired id=(\d+) node=(\S+)$/.exec(reply);
    if (match === null) throw new Error(`Curator peer: unexpected reply to ${line}: ${reply}`);
    return { acquired: true, id: Number(match[1]), node: match[2] as string };
  }

  mutexAcquire(lockPath: string, timeoutMs: number, opts: { revocable?: boolean } = {}): Promise<AcquireReply> {
    const verb = opts.revocable ? 'mutex-acquire-revocable' : 'mutex-acquire';
    return this.acquire(`${verb} ${lockPath} ${timeoutMs}`, timeoutMs);
  }

  semaphoreMutexAcquire(lockPath: string, timeoutMs: number): Promise<AcquireReply> {
    return this.acquire(`semaphore-mutex-acquire ${lockPath} ${timeoutMs}`, timeoutMs);
  }

  readAcquire(lockPath: string, timeoutMs: number): Promise<AcquireReply> {
    return this.acquire(`read-acquire ${lockPath} ${timeoutMs}`, timeoutMs);
  }

  writeAcquire(lockPath: string, timeoutMs: number): Promise<AcquireReply> {
    return this.acquire(`write-acquire ${lockPath} ${timeoutMs}`, timeoutMs);
  }

  semaphoreAcquire(semaphorePath: string, maxLeases: number, timeoutMs: number): Promise<AcquireReply> {
    return this.acquire(`semaphore-acquire ${semaphorePath} ${maxLeases} ${timeoutMs}`, timeoutMs);
  }

  async release(id: number): Promise<void> {
    const reply = await this.command(`release ${id}`);
    if (reply !== `released id=${id}`) throw new Error(`Curator peer: unexpected reply to release ${id}: ${reply}`);
  }

  async participants(lockPath: string): Promise<string[]> {
    const reply = await this.command(`participants ${lockPath}`);
    const list = reply.slice('participants'.length).trim();
    return list === '' ? [] : list.split(',');
  }

  async revoke(nodePath: string): Promise<void> {
    await this.command(`revoke ${nodePath}`);
  }

  private async expect(line: string, pattern: RegExp): Promise<RegExpExecArray> {
    const reply = await this.command(line);
    const match = pattern.exec(reply);
    if (match === null) throw new Error(`Curator peer: unexpected reply to ${line}: ${reply}`);
    return match;
  }

  async latchStart(latchPath: string, participantId: string): Promise<number> {
    return Number((await this.expect(`latch-start ${latchPath} ${participantId}`, /^latch n=(\d+)$/))[1]);
  }

  async latchHasLeadership(n: number): Promise<boolean> {
    return (await this.expect(`latch-has ${n}`, /^leader (true|false)$/))[1] === 'true';
  }

  async latchAwait(n: number, timeoutMs: number): Promise<boolean> {
    const reply = await this.command(`latch-await ${n} ${timeoutMs}`, timeoutMs + 30_000);
    if (reply !== 'leader true' && reply !== 'leader false') throw new Error(`Curator peer: unexpected reply to latch-await: ${reply}`);
    return reply === 'leader true';
  }

  async latchOurPath(n: number): Promise<string | undefined> {
    const path = (await this.expect(`latch-path ${n}`, /^path (\S+)$/))[1] as string;
    return path === '-' ? undefined : path;
  }

  async latchParticipants(n: number): Promise<{ id: string; isLeader: boolean }[]> {
    const list = ((await this.expect(`latch-participants ${n}`, /^participants ?(.*)$/))[1] as string).trim();
    if (list === '') return [];
    return list.split(',').map((entry) => {
      const at = entry.lastIndexOf(':');
      return { id: entry.slice(0, at), isLeader: entry.slice(at + 1) === 'true' };
    });
  }

  async latchClose(n: number, mode: 'SILENT' | 'NOTIFY_LEADER' = 'SILENT'): Promise<void> {
    await this.expect(`latch-close ${n} ${mode}`, /^closed n=\d+$/);
  }

  async countStart(countPath: string, seed: number): Promise<number> {
    return Number((await this.expect(`count-start ${countPath} ${seed}`, /^count n=(\d+)$/))[1]);
  }

  async countGet(n: number): Promise<{ value: number; version: number }> {
    const m = await this.expect(`count-get ${n}`, /^count value=(-?\d+) version=(-?\d+)$/);
    return { value: Number(m[1]), version: Number(m[2]) };
  }

  async countSet(n: number, value: number): Promise<void> {
    await this.expect(`count-set ${n} ${value}`, /^ok$/);
  }

  async countTrySet(n: number, newValue: number, previous: { version: number; value: number }): Promise<boolean> {
    const m = await this.expect(`count-try ${n} ${newValue} ${previous.version} ${previous.value}`, /^set (true|false)$/);
    return m[1] === 'true';
  }

  async countClose(n: number): Promise<void> {
    await this.expect(`count-close ${n}`, /^closed n=\d+$/);
  }

  async doubleBarrierEnter(barrierPath: string, memberQty: number, timeoutMs: number): Promise<boolean> {
    const reply = await this.command(`dbarrier-enter ${barrierPath} ${memberQty} ${timeoutMs}`, timeoutMs + 30_000);
    if (reply !== 'entered true' && reply !== 'entered false') throw new Error(`Curator peer: unexpected reply to dbarrier-enter: ${reply}`);
    return reply === 'entered true';
  }

  async doubleBarrierLeave(barrierPath: string, timeoutMs: number): Promise<boolean> {
    const reply = await this.command(`dbarrier-leave ${barrierPath} ${timeoutMs}`, timeoutMs + 30_000);
    if (reply !== 'left true' && reply !== 'left false') throw new Error(`Curator peer: unexpected reply to dbarrier-leave: ${reply}`);
    return reply === 'left true';
  }

  async cacheStart(cachePath: string): Promise<number> {
    return Number((await this.expect(`cache-start ${cachePath}`, /^cache n=(\d+)$/))[1]);
  }

  async cacheDump(n: number): Promise<Map<string, string>> {
    const list = ((await this.expect(`cache-dump ${n}`, /^cache ?(.*)$/))[1] as string).trim();
    const image = new Map<string, string>();
    if (list === '') return image;
    for (const entry of list.split(';')) {
      const at = entry.indexOf('=');
      image.set(entry.slice(0, at), entry.slice(at + 1));
    }
    return image;
  }

  async cacheClose(n: number): Promise<void> {
    await this.expect(`cache-close ${n}`, /^closed n=\d+$/);
  }

  async sdStart(basePath: string): Promise<number> {
    return Number((await this.expect(`sd-start ${basePath}`, /^sd n=(\d+)$/))[1]);
  }

  async sdRegister(n: number, spec: CuratorInstanceSpec): Promise<void> {
    await this.expect(`sd-register ${n} ${b64(spec)}`, /^ok$/);
  }

  async sdUpdate(n: number, spec: CuratorInstanceSpec): Promise<void> {
    await this.expect(`sd-update ${n} ${b64(spec)}`, /^ok$/);
  }

  async sdUnregister(n: number, spec: CuratorInstanceSpec): Promise<void> {
    await this.expect(`sd-unregister ${n} ${b64(spec)}`, /^ok$/);
  }

  async sdNames(n: number): Promise<string[]> {
    return unb64((await this.expect(`sd-names ${n}`, /^names (\S+)$/))[1] as string) as string[];
  }

  async sdQuery(n: number, name: string): Promise<CuratorInstanceView[]> {
    return unb64((await this.expect(`sd-query ${n} ${name}`, /^instances (\S+)$/))[1] as string) as CuratorInstanceView[];
  }

  async sdQueryOne(n: number, name: string, id: string): Promise<CuratorInstanceView | null> {
    return unb64((await this.expect(`sd-query-one ${n} ${name} ${id}`, /^instance (\S+)$/))[1] as string) as CuratorInstanceView | null;
  }

  async sdSerialize(spec: CuratorInstanceSpec): Promise<Uint8Array> {
    return new Uint8Array(Buffer.from((await this.expect(`sd-serialize ${b64(spec)}`, /^bytes (\S+)$/))[1] as string, 'base64'));
  }

  async sdDeserialize(bytes: Uint8Array): Promise<CuratorInstanceView> {
    const reply = await this.expect(`sd-deserialize ${Buffer.from(bytes).toString('base64')}`, /^instance (\S+)$/);
    return unb64(reply[1] as string) as CuratorInstanceView;
  }

  async sdCacheStart(n: number, name: string): Promise<number> {
    return Number((await this.expect(`sd-cache-start ${n} ${name}`, /^scache n=(\d+)$/))[1]);
  }

  async sdCacheDump(m: number): Promise<CuratorInstanceView[]> {
    return unb64((await this.expect(`sd-cache-dump ${m}`, /^instances (\S+)$/))[1] as string) as CuratorInstanceView[];
  }

  async sdCacheClose(m: number): Promise<void> {
    await this.expect(`sd-cache-close ${m}`, /^closed n=\d+$/);
  }

  async sdClose(n: number): Promise<void> {
    await this.expect(`sd-close ${n}`, /^closed n=\d+$/);
  }

  async nsWrite(namespace: string | null, path: string, data: Uint8Array, gzip: boolean): Promise<void> {
    const b = data.length === 0 ? '-' : Buffer.from(data).toString('base64');
    await this.expect(`ns-write ${namespace ?? '-'} ${path} ${b} ${gzip ? 'gzip' : 'plain'}`, /^ok$/);
  }

  async nsRead(namespace: string | null, path: string, gzip: boolean): Promise<Uint8Array> {
    const b = (await this.expect(`ns-read ${namespace ?? '-'} ${path} ${gzip ? 'gzip' : 'plain'}`, /^data (\S+)$/))[1] as string;
    return b === '-' ? new Uint8Array(0) : new Uint8Array(Buffer.from(b, 'base64'));
  }

  async sqOffer(path: string, data: Uint8Array): Promise<void> {
    await this.expect(`sq-offer ${path} ${itemB64(data)}`, /^ok$/);
  }

  async sqPoll(path: string, timeoutMs: number): Promise<Uint8Array | null> {
    const reply = await this.command(`sq-poll ${path} ${timeoutMs}`, timeoutMs + 30_000);
    if (reply === 'empty') return null;
    const match = /^data (\S+)$/.exec(reply);
    if (match === null) throw new Error(`Curator peer: unexpected reply to sq-poll: ${reply}`);
    return itemBytes(match[1] as string);
  }

  async queueStart(kind: 'plain' | 'id' | 'priority' | 'delay', path: string, opts: { lockPath?: string; consume: boolean }): Promise<number> {
    const line = `q-start ${kind} ${path} ${opts.lockPath ?? '-'} ${opts.consume ? 'consume' : 'produce'}`;
    return Number((await this.expect(line, /^queue n=(\d+)$/))[1]);
  }

  async queuePut(n: number, items: readonly Uint8Array[], arg?: string | number): Promise<void> {
    await this.expect(`q-put ${n} ${items.map(itemB64).join(',')}${arg === undefined ? '' : ` ${arg}`}`, /^ok$/);
  }

  async queueRemove(n: number, id: string): Promise<number> {
    return Number((await this.expect(`q-remove ${n} ${id}`, /^removed (\d+)$/))[1]);
  }

  queueItems(n: number): Uint8Array[] {
    const prefix = `queue n=${n} item=`;
    return this.events.filter((e) => e.startsWith(prefix)).map((e) => itemBytes(e.slice(prefix.length)));
  }

  async queueClose(n: number): Promise<void> {
    await this.expect(`q-close ${n}`, /^closed n=\d+$/);
  }

  waitForEvent(pattern: RegExp, timeoutMs = 30_000): Promise<string> {
    const seen = this.events.find((e) => pattern.test(e));
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const i = this.eventWaiters.indexOf(entry);
        if (i >= 0) this.eventWaiters.splice(i, 1);
        reject(new Error(`Curator peer sent no event matching ${pattern} within ${timeoutMs} ms`));
      }, timeoutMs);
      const entry = {
        pattern,
        resolve: (line: string) => {
          clearTimeout(timer);
          resolve(line);
        },
      };
      this.eventWaiters.push(entry);
    });
  }

  async close(): Promise<void> {
    if (this.exited) return;
    this.child.stdin.write('exit\n');
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await this.exit;
    clearTimeout(timer);
  }

  async kill(): Promise<void> {
    if (this.exited) return;
    this.child.kill('SIGKILL');
    await this.exit;
  }
}
