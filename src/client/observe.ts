/**
 * The client's observer: while anyone subscribes to `zkwire:operation`, every call its sessions make is traced on
 * that TracingChannel, and told to the stats collectors (collectStats) made on the client; state changes go to
 * `zkwire:connection` and `zkwire:session`. With no subscriber and no collector a call costs one check; a message
 * is built only when someone listens. Kept terse: all of it is in every bundle that has the client (bench:size);
 * the collectors' counting is in a separate import (collect-stats.ts).
 *
 * The channels come from `process.getBuiltinModule('node:diagnostics_channel')` where the runtime has it (Node
 * 20.16+, Deno, Bun, workerd with nodejs_compat), never a static `node:` import: this floor runs on edge runtimes
 * too, and where the lookup finds nothing the client publishes nothing (a stats collector still counts). The names follow
 * undici's and pg's style and are public API (docs/api.md, docs/observability.md).
 */

import type { ReplyProbe, RequestObserver } from '../session/outgoing.js';
import { isConnectedState, isTerminal, type StateChange } from '../session/state.js';
import { sessionIdHex } from '../session/trace.js';

/**
 * The context of every `zkwire:operation` event: one call to the server. `start` sees `op` and `path`; the rest is
 * filled in when the call settles, before `error`, `asyncStart` and `asyncEnd` are published.
 */
export interface OperationMessage {
  /** The operation: `getData`, `create`, `multi`... (the client method's name, as an error's `op`). */
  readonly op: string;
  /** The caller's path (undefined for calls without one: multi, whoAmI...). */
  readonly path: string | undefined;
  /** The session the call went on, in hex (`0x…`). */
  readonly sessionId?: string;
  /** The request's xid, once it was written (undefined for a call failed or aborted before that). */
  readonly xid?: number | undefined;
  /** The request and reply frames' sizes in bytes, length prefixes included (0 when none was sent or read). */
  readonly bytesOut?: number;
  readonly bytesIn?: number;
  /** From the call to its settling, in ms (sub-ms resolution). */
  readonly durationMs?: number;
  /** The failed call's error code (`NONODE`, `CONNECTIONLOSS`...); undefined when it succeeded. */
  readonly code?: string | undefined;
  /** Set by the TracingChannel: what the call resolved with, or the ZooKeeperError it rejected with. */
  readonly result?: unknown;
  readonly error?: unknown;
}

/**
 * A message on `zkwire:connection` (every state change of the client) and on `zkwire:session` (a session
 * established, first or after a renewal, or ended: expired, closed, auth-failed): the StateChange plus where.
 */
export interface ConnectionMessage extends StateChange {
  /** The session, in hex (after a renewal, the new one). */
  readonly sessionId: string;
  /** The server (`host:port`) while connected. */
  readonly server: string | undefined;
}

/** A channel as node:diagnostics_channel has it (in workerd `hasSubscribers` is a method, not a getter). */
interface Channel {
  readonly hasSubscribers?: boolean | (() => boolean);
  publish(message: unknown): void;
}

/** Whether anyone listens: undefined where the runtime lacks the member (a TracingChannel on Bun 1.x). */
const listened = (c: Channel | Pick<TracingChannel, 'hasSubscribers'>): boolean | undefined => {
  const h = c.hasSubscribers;
  return typeof h === 'function' ? h.call(c) : h;
};

/**
 * A TracingChannel, reduced to what the client uses. Bun 1.x lacks its `hasSubscribers`: there `start`'s decides,
 * so a subscriber there must take `start` (`subscribe({ start, ... })` does; OpenTelemetry's spans begin there).
 */
interface TracingChannel extends Record<'start' | 'end' | 'asyncStart' | 'asyncEnd' | 'error', Channel> {
  readonly hasSubscribers?: boolean | (() => boolean);
  tracePromise<T>(fn: () => Promise<T>, context: object): Promise<T>;
}

/** The client's three channels (the same objects for every client: a channel is one per name in a process). */
export interface Channels {
  readonly op: TracingChannel;
  readonly connection: Channel;
  readonly session: Channel;
}

/** The channels, or undefined where the runtime has no diagnostics_channel (with TracingChannel). */
export function channels(): Channels | undefined {
  const dc = (globalThis as { process?: { getBuiltinModule?(id: string): any } }).process?.getBuiltinModule?.('node:diagnostics_channel');
  const op: TracingChannel | undefined = dc?.tracingChannel?.('zkwire:operation');
  return op && { op, connection: dc.channel('zkwire:connection'), session: dc.channel('zkwire:session') };
}

/**
 * What a stats collector (collectStats, collect-stats.ts) is told of each settled call: the operation, its latency
 * in ms, its error code when it failed, its request and reply frames' bytes.
 */
export type CallTap = (op: string, ms: number, code: string | undefined, out: number, got: number) => void;

/**
 * The session hook (SessionOptions.observe) that tells `taps` and the operation channel of every call. With no tap
 * and no subscriber a call goes out as it would without the hook: no closure, no clock read.
 */
export function observer(taps: ReadonlySet<CallTap>, ch: Channels | undefined): RequestObserver {
  return (spec, session, send) => {
    const tc = ch?.op;
    const m: Record<string, unknown> | undefined = tc && (listened(tc) ?? listened(tc.start)) ? { op: spec.op, path: spec.path } : undefined;
    if (!m && !taps.size) return send();
    const t0 = performance.now();
    const probe: ReplyProbe = (item, err) => {
      const durationMs = performance.now() - t0;
      const bytesOut = item.sent ? (item.size ?? 0) : 0;
      const bytesIn = item.got ?? 0;
      const code = err?.code;
      for (const tap of taps) tap(spec.op, durationMs, code, bytesOut, bytesIn);
      if (m) Object.assign(m, { sessionId: sessionIdHex(session.sessionId), xid: item.sent ? item.xid : undefined, bytesOut, bytesIn, durationMs, code });
    };
    return m ? tc!.tracePromise(() => send(probe), m) : send(probe);
  };
}

/** Publishes each state change to whoever listens (`now` gives the session as it is). */
export function stateObserver(ch: Channels, now: () => { readonly sessionId: bigint; readonly server: string | undefined }): (change: StateChange) => void {
  return (change) => {
    const con = listened(ch.connection);
    const ses = listened(ch.session) && (isTerminal(change.to) || (isConnectedState(change.to) && (change.event === 'CONNECTED' || change.newSession)));
    if (!con && !ses) return;
    const { sessionId, server } = now();
    const message: ConnectionMessage = { ...change, sessionId: sessionIdHex(sessionId), server };
    if (con) ch.connection.publish(message);
    if (ses) ch.session.publish(message);
  };
}
