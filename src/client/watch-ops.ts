/**
 * Watch operations beyond the one-shot watches reads leave: persistent and persistent-recursive watches
 * as handles (addWatch; disposing the handle removes the watch), removeWatches and checkWatches.
 */

import { clientError } from '../errors.js';
import { AddWatchMode as WireAddWatchMode, ErrorCode, WatcherType } from '../protocol/index.js';
import type { Session } from '../session/session.js';
import type { WatchEvent, WatchKeeperState, WatchKind } from '../session/watches.js';
import { guard, ok, type ClientContext } from './context.js';
import type { AddWatchMode, CallOptions, RemoveWatchType } from './types.js';
import { markRenewed, PersistentWatch } from './watch-handle.js';

export function addWatch(ctx: ClientContext, path: string, options: CallOptions & { mode?: AddWatchMode }): Promise<PersistentWatch> {
  return guard(() => {
    const server = ctx.serverPath(path, 'addWatch');
    const mode = options.mode ?? 'persistent';
    if (mode !== 'persistent' && mode !== 'persistent-recursive') {
      throw clientError('BAD_ARGUMENT', `unknown watch mode "${String(mode)}"`, { op: 'addWatch', path });
    }
    const kind: WatchKind = mode === 'persistent' ? 'persistent' : 'persistentRecursive';
    const wireMode = mode === 'persistent' ? WireAddWatchMode.Persistent : WireAddWatchMode.PersistentRecursive;
    return ctx.send(
      'addWatch',
      path,
      'addWatch',
      { path: server, mode: wireMode },
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

/** Forgets a persistent watcher; removes the server watch when nothing else local needs it. */
async function dropWatch(ctx: ClientContext, kind: WatchKind, server: string, handle: PersistentWatch): Promise<void> {
  ctx.persistentWatches.delete(handle);
  const { session } = ctx;
  session.watches.remove(kind, server, handle.watcher);
  if (session.watches.has(server)) return;
  // Only on a live link: after a reconnect the watch is simply not re-armed, and a removal queued across
  // a reconnect could hit a watch added meanwhile.
  if (session.state !== 'connected' && session.state !== 'connected-read-only') return;
  try {
    // Through the public removal, so every local watcher the server drops with it is told (a one-shot watch whose
    // reply was still in flight when we sent this would otherwise wait for an event that can never come).
    await removeWatches(ctx, handle.path, 'any', {});
  } catch {
    // Best effort: the session may be closing or the link dropping; either way the watch is gone.
  }
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
    const mode = kind === 'persistent' ? WireAddWatchMode.Persistent : WireAddWatchMode.PersistentRecursive;
    ctx
      .send('addWatch', handle.path, 'addWatch', { path: server, mode }, {}, (reply) => {
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
  return guard(() => {
    const server = ctx.serverPath(path, 'removeWatches');
    const wire = watcherType(type, 'removeWatches', path);
    return ctx.send('removeWatches', path, 'removeWatches', { path: server, type: wire }, options, (reply) => {
      ok(reply, 'removeWatches', path);
      const watches = ctx.session.watches;
      const notify = (kinds: WatchKind[], eventType: WatchEvent['type']): void => {
        for (const w of watches.take(server, kinds)) w({ type: eventType, state: 'SyncConnected', path: server });
      };
      if (type !== 'data') notify(['child'], 'ChildWatchRemoved');
      if (type !== 'children') notify(['data', 'exist'], 'DataWatchRemoved');
      if (type === 'any') notify(['persistent', 'persistentRecursive'], 'PersistentWatchRemoved');
    });
  });
}

export function checkWatches(ctx: ClientContext, path: string, type: RemoveWatchType, options: CallOptions): Promise<boolean> {
  return guard(() => {
    const body = { path: ctx.serverPath(path, 'checkWatches'), type: watcherType(type, 'checkWatches', path) };
    return ctx.send('checkWatches', path, 'checkWatches', body, options, (reply) => {
      if (reply.err === ErrorCode.NOWATCHER) return false;
      ok(reply, 'checkWatches', path);
      return true;
    });
  });
}

function watcherType(type: RemoveWatchType, op: string, path: string): number {
  switch (type) {
    case 'children':
      return WatcherType.Children;
    case 'data':
      return WatcherType.Data;
    case 'any':
      return WatcherType.Any;
    default:
      throw clientError('BAD_ARGUMENT', `unknown watcher type "${String(type)}"`, { op, path });
  }
}
