/**
 * The session fuzz target: a real ZooKeeperClient over the in-memory transport, talking to the hostile server,
 * on virtual time. The client makes ordinary calls (with and without watches, some aborted, a few auths) while the
 * server lies; then the client is closed. The contract checked:
 *  - nothing throws out of the transport callbacks (over a socket that is an uncaught exception);
 *  - every call settles, within three session timeouts once a session exists, with a value or a ZooKeeperError;
 *  - no unhandled rejection; every one-shot watch resolves (it never rejects), at the latest on close;
 *  - close() settles, and afterwards no timer and no stream is left (nothing grows without bound);
 *  - final states absorb: no state change after closed or auth-failed; after expired only the renewal's connecting;
 *  - every frame the client writes decodes on the server side, and tracing (onFrame) never breaks the session.
 */

import { ZooKeeperClient } from '../../../src/client.js';
import { ZooKeeperError } from '../../../src/errors.js';
import { ErrorCode, ClientErrorCode } from '../../../src/protocol/index.js';
import type { Corpus } from './corpus.js';
import type { FuzzTarget } from './engine.js';
import type { Prng } from '../../harness/prng.js';
import { FuzzViolation, describeThrown } from './violation.js';
import { VirtualLink } from './virtual-link.js';
import { describeFrames } from '../../../src/session/describe-frames.js';

const KNOWN_CODES = new Set<string>([...Object.keys(ErrorCode), ...Object.keys(ClientErrorCode)]);
const TERMINAL = new Set(['closed', 'expired', 'auth-failed']);

interface Tracked {
  readonly what: string;
  settled: boolean;
  outcome?: string;
}

type Call = (c: ZooKeeperClient, path: string, signal: AbortSignal | undefined) => { what: string; promise: Promise<unknown>; watch?: (v: unknown) => Promise<unknown> | undefined };

const watchOf = (v: unknown): Promise<unknown> | undefined => (v as { watch?: Promise<unknown> }).watch;
const opt = (signal: AbortSignal | undefined): { signal?: AbortSignal } => (signal === undefined ? {} : { signal });

const CALLS: readonly Call[] = [
  (c, p, s) => ({ what: `getData ${p}`, promise: c.getData(p, opt(s)) }),
  (c, p, s) => ({ what: `getData+watch ${p}`, promise: c.getData(p, { watch: true, ...opt(s) }), watch: watchOf }),
  (c, p, s) => ({ what: `exists+watch ${p}`, promise: c.exists(p, { watch: true, ...opt(s) }), watch: watchOf }),
  (c, p, s) => ({ what: `getChildren+watch ${p}`, promise: c.getChildren(p, { watch: true, ...opt(s) }), watch: watchOf }),
  (c, p, s) => ({ what: `getChildrenWithStat ${p}`, promise: c.getChildrenWithStat(p, opt(s)) }),
  (c, p, s) => ({ what: `create ${p}`, promise: c.create(p, 'x', { mode: 'ephemeral-sequential', stat: true, ...opt(s) }) }),
  (c, p, s) => ({ what: `create container ${p}`, promise: c.create(p, null, { mode: 'container', ...opt(s) }) }),
  (c, p, s) => ({ what: `setData ${p}`, promise: c.setData(p, 'y', { version: 3, ...opt(s) }) }),
  (c, p, s) => ({ what: `delete ${p}`, promise: c.delete(p, opt(s)) }),
  (c, p, s) => ({ what: `getACL ${p}`, promise: c.getACL(p, opt(s)) }),
  (c, p, s) => ({ what: `sync ${p}`, promise: c.sync(p, opt(s)) }),
  (c, p, s) => ({ what: `getAllChildrenNumber ${p}`, promise: c.getAllChildrenNumber(p, opt(s)) }),
  (c, _p, s) => ({ what: 'getEphemerals', promise: c.getEphemerals('/', opt(s)) }),
  (c, _p, s) => ({ what: 'whoAmI', promise: c.whoAmI(opt(s)) }),
  (c, p, s) => ({ what: `checkWatches ${p}`, promise: c.checkWatches(p, 'any', opt(s)) }),
  (c, p, s) => ({
    what: `multi ${p}`,
    promise: c.multi(
      [
        { kind: 'create', path: p, data: 'm' },
        { kind: 'setData', path: p, data: 'n', version: -1 },
        { kind: 'check', path: p, version: 1 },
        { kind: 'delete', path: p, version: -1 },
      ],
      opt(s),
    ),
  }),
  (c, p, s) => ({ what: `multiRead ${p}`, promise: c.multiRead([{ kind: 'getData', path: p }, { kind: 'getChildren', path: p }], opt(s)) }),
  (c, p, s) => ({
    what: `addWatch ${p}`,
    promise: c.addWatch(p, { mode: 'persistent-recursive', ...opt(s) }).then(async (h) => {
      // Removing it again must be as safe as adding it.
      await h[Symbol.asyncDispose]();
      return h;
    }),
  }),
  (c, _p, s) => ({ what: 'addAuth', promise: c.addAuth('digest', 'fuzz:pw', opt(s)) }),
  (c, p, s) => ({ what: `mkdirp ${p}/a/b`, promise: c.mkdirp(`${p}/a/b`, { containers: true, ...opt(s) }) }),
];

export interface SessionScenarioResult {
  /** Connections the server accepted. */
  readonly connections: number;
  readonly calls: number;
  /** Calls that resolved / rejected, by ZooKeeperError code. */
  readonly outcomes: Readonly<Record<string, number>>;
}

export interface SessionScenarioOptions {
  /** Hostile-server acts to leave out (see HostileServerOptions.exclude). */
  readonly exclude?: readonly string[];
}

export async function runSessionScenario(
  rng: Prng,
  corpus: Corpus | undefined,
  options: SessionScenarioOptions = {},
): Promise<SessionScenarioResult> {
  const maxFrameSize = rng.pick([4096, 64 * 1024, undefined]);
  const link = new VirtualLink(rng, {
    ...(maxFrameSize === undefined ? {} : { clientMaxFrameSize: maxFrameSize }),
    ...(corpus === undefined ? {} : { donors: corpus.donors }),
    ...(options.exclude === undefined ? {} : { exclude: options.exclude }),
  });
  const { clock, server, transport } = link;
  const requestedMs = rng.pick([2000, 6000, 30_000]);
  const problems: string[] = [];
  const unhandled = (reason: unknown): void => void problems.push(`unhandled rejection: ${describeThrown(reason)}`);
  process.on('unhandledRejection', unhandled);
  let traced = 0;
  const states: string[] = [];

  const fail = (message: string): never => {
    throw new FuzzViolation(message, `server log: ${server.log.slice(-25).join(' | ')}; states: ${states.slice(-12).join(' > ')}`);
  };

  const settle = async (): Promise<void> => {
    await link.settle();
    if (link.deliveryStorm) fail('deliveries never stop: client and server keep feeding each other at one instant');
  };
  const advance = async (ms: number): Promise<void> => {
    await link.advance(ms);
    if (link.deliveryStorm) fail('deliveries never stop: client and server keep feeding each other at one instant');
    if (clock.storm !== undefined) fail(`busy timer loop: ${clock.storm}`);
  };

  try {
    const client = new ZooKeeperClient('fuzz-a:2181,fuzz-b:2182,fuzz-c:2183', {
      transport,
      clock,
      sessionTimeoutMs: requestedMs,
      // The hostile server speaks frames only: no side connection asking for its version.
      serverVersion: '3.8.0',
      ...(maxFrameSize === undefined ? {} : { maxFrameSize }),
      random: () => rng.float(),
      reconnect: { nextDelay: (passes) => (passes === 0 ? rng.int(100) : 100 * Math.min(10, passes)) },
      onFrame: describeFrames((t) => {
        traced++;
        if (typeof t.frame.summary !== 'string') problems.push('trace frame without a summary');
      }),
      ...(rng.chance(0.2) ? { authInfo: [{ scheme: 'digest', auth: 'fuzz:pw' }] } : {}),
    });
    client.onStateChange((change) => {
      const last = states[states.length - 1];
      const renewal = last === 'expired' && change.to === 'connecting';
      if (last !== undefined && TERMINAL.has(last) && !renewal) problems.push(`state change ${change.to} after terminal ${last}`);
      states.push(change.to);
    });

    const tracked: Tracked[] = [];
    const watches: Tracked[] = [];
    const track = (what: string, p: Promise<unknown>, list: Tracked[], onValue?: (v: unknown) => void): void => {
      const t: Tracked = { what, settled: false };
      list.push(t);
      p.then(
        (v) => {
          t.settled = true;
          t.outcome = 'ok';
          onValue?.(v);
        },
        (e: unknown) => {
          t.settled = true;
          if (!(e instanceof ZooKeeperError)) problems.push(`${what} rejected with ${describeThrown(e)}`);
          else if (!KNOWN_CODES.has(e.code)) problems.push(`${what} rejected with unknown code ${e.code}`);
          t.outcome = e instanceof ZooKeeperError ? e.code : 'untyped';
        },
      );
    };
    const paths = ['/fuzz', '/fuzz/a', '/x', '/lock/_c_1-lock-'];
    const steps = rng.range(3, 12);
    let maxTimeout = requestedMs;
    for (let step = 0; step < steps; step++) {
      const n = rng.range(1, 4);
      for (let i = 0; i < n; i++) {
        const abort = rng.chance(0.1) ? new AbortController() : undefined;
        const call = rng.pick(CALLS)(client, rng.pick(paths), abort?.signal);
        track(call.what, call.promise, tracked, (v) => {
          const w = call.watch?.(v);
          if (w !== undefined) track(`watch of ${call.what}`, w, watches);
        });
        if (abort !== undefined) {
          if (rng.chance(0.5)) abort.abort();
          else queueMicrotask(() => abort.abort());
        }
      }
      await advance(rng.pick([0, 1, 10, 100, rng.int(requestedMs)]));
      maxTimeout = Math.max(maxTimeout, client.negotiatedTimeoutMs);
    }

    // No hang: once a session exists, every call settles within a bound derived from the session timeout
    // (a dead link is noticed after 2/3 T, the session given up 4/3 T after the last frame heard).
    if (client.sessionId !== 0n) {
      const start = clock.now();
      const allSettled = (): boolean => tracked.every((t) => t.settled);
      let bound = 0;
      for (;;) {
        // A later connection may grant a longer timeout; the bound follows the longest one granted.
        maxTimeout = Math.max(maxTimeout, client.negotiatedTimeoutMs);
        bound = 3 * maxTimeout + 10_000;
        const left = start + bound - clock.now();
        if (left <= 0 || allSettled()) break;
        await link.runUntil(() => allSettled() || client.negotiatedTimeoutMs > maxTimeout, left);
        await advance(0);
      }
      const stuck = tracked.filter((t) => !t.settled);
      if (stuck.length > 0) fail(`${stuck.length} call(s) still pending ${bound} ms after the last one was made: ${stuck.map((t) => t.what).join(', ')}`);
    }

    const closing = client.close();
    let closed = false;
    closing.then(
      () => (closed = true),
      (e: unknown) => problems.push(`close() rejected: ${describeThrown(e)}`),
    );
    const closeBound = 3 * Math.max(maxTimeout, client.negotiatedTimeoutMs) + 10_000;
    await link.runUntil(() => closed, closeBound);
    await settle();
    if (!closed) fail('close() did not settle');
    if (clock.storm !== undefined) fail(`busy timer loop: ${clock.storm}`);
    const unsettled = [...tracked, ...watches].filter((t) => !t.settled);
    if (unsettled.length > 0) fail(`unsettled after close: ${unsettled.map((t) => t.what).join(', ')}`);
    for (const w of watches) if (w.outcome !== 'ok') problems.push(`${w.what} rejected (${w.outcome ?? '?'}); watches must only resolve`);
    if (clock.pending !== 0) problems.push(`${clock.pending} timer(s) still armed after close`);
    if (transport.openStreams !== 0) problems.push(`${transport.openStreams} stream(s) still open after close`);
    if (!TERMINAL.has(client.state)) problems.push(`state ${client.state} after close`);
    problems.push(...transport.thrown, ...server.clientViolations);
    if (traced === 0 && server.connections > 0 && transport.thrown.length === 0) {
      // Every accepted connection sees at least the ConnectRequest, which the tracer reports.
      problems.push('onFrame never called');
    }
    if (problems.length > 0) fail(problems.slice(0, 5).join('; '));
    const outcomes: Record<string, number> = {};
    for (const t of tracked) outcomes[t.outcome ?? '?'] = (outcomes[t.outcome ?? '?'] ?? 0) + 1;
    return { connections: server.connections, calls: tracked.length, outcomes };
  } finally {
    process.off('unhandledRejection', unhandled);
  }
}

/** The session target for the fuzz engine, optionally leaving some server acts out. */
export function sessionTarget(options: SessionScenarioOptions = {}): FuzzTarget {
  return {
    name: 'session',
    async run(rng: Prng, corpus: Corpus): Promise<void> {
      await runSessionScenario(rng, corpus, options);
    },
  };
}
