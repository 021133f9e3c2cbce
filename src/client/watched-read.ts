/**
 * The one-shot watch plumbing of reads. With `watch: true` a read asks the server for a watch, and the
 * local watcher is registered while the reply is being read (before any later frame), only if the reply
 * says the watch was set, so a notification right behind the reply always finds it.
 */

import type { ResponseBodyByOp } from '../protocol/ops.js';
import type { WatchEvent, WatchKind } from '../session/watches.js';
import { ok, type ClientContext } from './context.js';
import { oneShot } from './watch-handle.js';
import type { WatchOptions } from './types.js';

export interface PendingWatch {
  /** Adds the watcher to the session's registry: call it from onReply, once the server set the watch. */
  register(): void;
  /** Takes it out again (the read's caller went away: nobody can await the event). */
  unregister(): void;
  /** The caller's handle: the first event. */
  readonly promise: Promise<WatchEvent>;
}

/** A one-shot watcher of `kind` on a server path, not yet registered. */
export function watchOn(ctx: ClientContext, kind: WatchKind, serverPath: string): PendingWatch {
  const { watcher, promise } = oneShot(ctx.mapEvent);
  const watches = ctx.session.watches;
  return {
    register: () => watches.add(kind, serverPath, watcher),
    unregister: () => void watches.remove(kind, serverPath, watcher),
    promise,
  };
}

/** The reads that take `{path, watch}` and may leave a one-shot watch. */
export type WatchedReadOp = 'getData' | 'getChildren' | 'getChildren2';

export interface ReadCall<K extends WatchedReadOp> {
  readonly op: string;
  /** The caller's path (for errors). */
  readonly path: string;
  readonly serverPath: string;
  readonly wire: K;
  /** The watch such a read leaves. */
  readonly kind: WatchKind;
}

/**
 * Sends a `{path, watch}` read; on success registers the watch (if asked for) and lets `shape` build the
 * result from the response record and the watch's promise (undefined when no watch was asked for).
 */
export function watchedRead<K extends WatchedReadOp, R>(
  ctx: ClientContext,
  call: ReadCall<K>,
  options: WatchOptions,
  shape: (body: ResponseBodyByOp[K], watch: Promise<WatchEvent> | undefined) => R,
): Promise<R> {
  const { op, path, serverPath, wire } = call;
  const w = options.watch === true ? watchOn(ctx, call.kind, serverPath) : undefined;
  return ctx.send(
    op,
    path,
    wire,
    { path: serverPath, watch: w !== undefined },
    options,
    (reply) => {
      ok(reply, op, path);
      w?.register();
      return shape(reply.body, w?.promise);
    },
    // The server's one-shot watch stays (there is no way to remove only it) and fires into nothing, harmlessly;
    // the local watcher goes, so it neither lingers nor keeps the path's watches alive when a handle closes.
    () => w?.unregister(),
  );
}
