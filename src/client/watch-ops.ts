/**
 * Watch operations beyond the one-shot watches reads leave: persistent and persistent-recursive watches
 * as handles (addWatch; disposing the handle removes the watch), removeWatches and checkWatches.
 */

import { clientError, type ZooKeeperError } from '../errors.js';
import { AddWatchMode as WireAddWatchMode, ErrorCode, WatcherType } from '../protocol/index.js';
import type { Reply } from '../session/outgoing.js';
import type { Session } from '../session/session.js';
import type { WatchEvent, WatchKeeperState, WatchKind } from '../session/watches.js';
import { guard, ok, type ClientContext } from './context.js';
import type { AddWatchMode, CallOptions, RemoveWatchType } from './types.js';
import { markRenewed, PersistentWatch } from './watch-handle.js';

/** Each persistent mode: the local table its watchers are kept in, and its number on the wire (addWatch). */
const PERSISTENT_MODES: Readonly<Record<AddWatchMode, { readonly kind: WatchKind; readonly wire: number }>> = {
  persistent: { kind: 'persistent', wire: WireAddWatchMode.Persistent },
  'persistent-recursive': { kind: 'persistentRecursive', wire: WireAddWatchMode.PersistentRecursive },
};

/** A watcher type's number on the wire, the local watches a removal of it drops, and the event they get. */
interface WatcherTypeRow {
  readonly wire: number;
  readonly kinds: readonly WatchKind[];
  readonly event: WatchEvent['type'];
}

/** The types removeWatches and checkWatches take, but `any`, which stands for all of them. */
const WATCHER_TYPES: Readonly<Record<Exclude<RemoveWatchType, 'any'>, WatcherTypeRow>> = {
  children: { wire: WatcherType.Children, kinds: ['child'], event: 'ChildWatchRemoved' },
  data: { wire: WatcherType.Data, kinds: ['data', 'exist'], event: 'DataWatchRemoved' },
  persistent: { wire: WatcherType.Persistent, kinds: ['persistent'], event: 'PersistentWatchRemoved' },
  'persistent-recursive': { wire: WatcherType.PersistentRecursive, kinds: ['persistentRecursive'], event: 'PersistentWatchRemoved' },
};

export function addWatch(ctx: ClientContext, path: string, options: CallOptions & { mode?: AddWatchMode }): Promise<PersistentWatch> {
  return guard(() => {
    const server = ctx.serverPath(path, 'addWatch');
    const mode = options.mode ?? 'persistent';
    if (!Object.hasOwn(PERSISTENT_MODES, mode)) throw clientError('BAD_ARGUMENT', `unknown watch mode "${String(mode)}"`, { op: 'addWatch', path });
    const { kind, wire } = PERSISTENT_MODES[mode];
    return ctx.send(
      'addWatch',
      path,
      'addWatch',
      { path: server, mode: wire },
      options,
      (reply) => {
        ok(reply, 'addWatch', path);
        const handle: PersistentWatch = new PersistentWatch(path, mode, ctx.mapEvent, () => dropWatch(ctx, kind, server, handle));
        ctx.session.watches.add(kind, server, handle.watcher);
        ctx.persistentWatches.set(handle, { kind, server });
        return handle;
      },
      // Aborted after sending: the server added the watch, but nobody holds the handle that could remove it, and
      // a caller who aborted expects the call to leave nothing behind. So the handle is closed at once, which
      // removes the server watch too unless another local watcher still needs the path (as any handle's close).
      (handle) => void handle.close(),
    );
  });
}

/**
 * Forgets a persistent watcher and, when no other local handle of its kind needs the path, removes the server watch:
 *
 *  - with `any` when no local watcher of any kind is left on the path;
 *  - else by its own type (ZooKeeper 3.9: WatcherType Persistent / PersistentRecursive), so one-shot watches and
 *    the other persistent kind on the path stay armed. An older server has only `any`, which would cancel a pending
 *    one-shot watch: there the server watch stays until the session ends, and the client drops its events (nobody is
 *    registered for them).
 */
async function dropWatch(ctx: ClientContext, kind: WatchKind, server: string, handle: PersistentWatch): Promise<void> {
  ctx.persistentWatches.delete(handle);
  const { session } = ctx;
  session.watches.remove(kind, server, handle.watcher);
  if (session.watches.has(server, [kind])) return;
  // Only on a live link: after a reconnect the watch is simply not re-armed, and a removal queued across
  // a reconnect could hit a watch added meanwhile.
  if (session.state !== 'connected' && session.state !== 'connected-read-only') return;
  try {
    // Through the public removal, so every local watcher the server drops with it is told (a one-shot watch whose
    // reply was still in flight when we sent this would otherwise wait for an event that can never come).
    // Nothing else local on the path: `any` is right on every release, and one request even when the version is
    // not known. Otherwise only a removal by the watch's own type (3.9) leaves the others armed.
    if (!session.watches.has(server)) await removeWatches(ctx, handle.path, 'any', {});
    else if (removalByPersistentType(ctx) !== false) await removeWatches(ctx, handle.path, handle.mode, {});
  } catch {
    // Best effort: the session may be closing or the link dropping; either way the watch is gone.
  }
}

/** Whether the server takes removeWatches by persistent type (3.9); undefined while that is not known. */
function removalByPersistentType(ctx: ClientContext): boolean | undefined {
  return ctx.sessions.features.has('removePersistentWatchesByType', ctx.session.serverVersion);
}

/**
 * A removal or check by persistent type needs 3.9: refused unsent when the server is known older, and a 3.6–3.8
 * server's answer to the unknown type (MARSHALLINGERROR) read as the same UNIMPLEMENTED.
 */
function persistentTypeUnsupported(op: string, path: string): ZooKeeperError {
  return clientError('UNIMPLEMENTED', 'removing or checking watches by persistent type needs ZooKeeper 3.9.0 or later', { op, path });
}

/**
 * After an expiry: every persistent watch still open moves from the expired session to its successor (already
 * `ctx.session`). The addWatch goes first in the new session's queue, so a read the watch's owner makes after the
 * expiry marker is answered with the watch in place: re-reading then misses nothing. A watch the new session cannot
 * take (it ends too, or the server refuses) ends with that session's final event.
 */
export function carryPersistentWatches(ctx: ClientContext, old: Session): void {
  const next = ctx.session;
  for (const [handle, { kind, server }] of ctx.persistentWatches) {
    old.watches.remove(kind, server, handle.watcher);
    ctx
      .send('addWatch', handle.path, 'addWatch', { path: server, mode: PERSISTENT_MODES[handle.mode].wire }, {}, (reply) => {
        ok(reply, 'addWatch', handle.path);
        // Closed while the re-add was on its way: the server watch it made is nobody's; take it back.
        if (handle.closed) void removeWatches(ctx, handle.path, 'any', {}).catch(() => undefined);
        else next.watches.add(kind, server, handle.watcher);
      })
      .catch((err: unknown) => {
        // A later expiry has carried the handle on again; any other failure ends it.
        if (ctx.session !== next || handle.closed) return;
        ctx.persistentWatches.delete(handle);
        handle.watcher({ type: 'None', state: finalState(err), path: undefined });
      });
    markRenewed(handle);
  }
}

function finalState(err: unknown): WatchKeeperState {
  const code = (err as { code?: unknown }).code;
  return code === 'CLOSED' ? 'Closed' : code === 'AUTHFAILED' ? 'AuthFailed' : 'Expired';
}

export function removeWatches(ctx: ClientContext, path: string, type: RemoveWatchType, options: CallOptions): Promise<void> {
  return watchesRequest(ctx, 'removeWatches', path, type, options, (reply, server) => {
    ok(reply, 'removeWatches', path);
    const watches = ctx.session.watches;
    for (const row of type === 'any' ? Object.values(WATCHER_TYPES) : [WATCHER_TYPES[type]]) {
      // A removed persistent watch is over: its handle ends and is not carried to a later session.
      for (const [handle, at] of ctx.persistentWatches) if (at.server === server && row.kinds.includes(at.kind)) ctx.persistentWatches.delete(handle);
      for (const w of watches.take(server, row.kinds)) w({ type: row.event, state: 'SyncConnected', path: server });
    }
  });
}

export function checkWatches(ctx: ClientContext, path: string, type: RemoveWatchType, options: CallOptions): Promise<boolean> {
  return watchesRequest(ctx, 'checkWatches', path, type, options, (reply) => {
    if (reply.err === ErrorCode.NOWATCHER) return false;
    ok(reply, 'checkWatches', path);
    return true;
  });
}

/**
 * Sends removeWatches or checkWatches of `type` on `path`, its reply to `onReply`. A persistent type is refused unsent by a server known older than 3.9, and its MARSHALLINGERROR answer is
 * read as the same refusal.
 */
function watchesRequest<T>(
  ctx: ClientContext,
  op: 'removeWatches' | 'checkWatches',
  path: string,
  type: RemoveWatchType,
  options: CallOptions,
  onReply: (reply: Reply, server: string) => T,
): Promise<T> {
  return guard(() => {
    const server = ctx.serverPath(path, op);
    if (type !== 'any' && !Object.hasOwn(WATCHER_TYPES, type)) throw clientError('BAD_ARGUMENT', `unknown watcher type "${String(type)}"`, { op, path });
    const byPersistentType = type === 'persistent' || type === 'persistent-recursive';
    if (byPersistentType && removalByPersistentType(ctx) === false) throw persistentTypeUnsupported(op, path);
    const wire = type === 'any' ? WatcherType.Any : WATCHER_TYPES[type].wire;
    return ctx.send(op, path, op, { path: server, type: wire }, options, (reply) => {
      if (byPersistentType && reply.err === ErrorCode.MARSHALLINGERROR) throw persistentTypeUnsupported(op, path);
      return onReply(reply, server);
    });
  });
}
