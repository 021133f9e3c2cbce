/**
 * The read operations: one node's Stat, data, ACL and children, subtree counts, the session's
 * ephemerals, the ensemble config, and sync. Reads with `watch: true` also return a one-shot watch.
 */

import { clientError } from '../errors.js';
import { ErrorCode, type GetChildren2Response, type GetDataResponse, type Stat } from '../protocol/index.js';
import type { WatchEvent } from '../session/watches.js';
import type { ACL } from './acl.js';
import { guard, ok, type ClientContext } from './context.js';
import type { CallOptions, ChildrenWithStat, NodeData, Watched, WatchOptions } from './types.js';
import { watchedRead, watchOn } from './watched-read.js';

const CONFIG_NODE = '/zookeeper/config';
const EMPTY = new Uint8Array(0);

/**
 * The result alone, or with the watch when one was asked for: set on the result, which each reply makes afresh (a
 * spread copy costs V8 more than the read's own work; a lock waiter makes one watched read per wait).
 */
function withWatch<R extends object>(result: R, watch: Promise<WatchEvent> | undefined): R | (R & Watched) {
  if (watch !== undefined) (result as R & { watch: Promise<WatchEvent> }).watch = watch;
  return result;
}

export function exists(ctx: ClientContext, path: string, options: WatchOptions): Promise<Stat | null | ({ stat: Stat | null } & Watched)> {
  return guard(() => {
    const server = ctx.serverPath(path, 'exists');
    const watch = options.watch === true;
    // An exists watch on an existing node is a data watch; on a missing node an exist watch (fires on create).
    const onData = watch ? watchOn(ctx, 'data', server) : undefined;
    const onExist = watch ? watchOn(ctx, 'exist', server) : undefined;
    return ctx.send(
      'exists',
      path,
      'exists',
      { path: server, watch },
      options,
      (reply) => {
        let stat: Stat | null = null;
        let w = onExist;
        if (reply.err === ErrorCode.NONODE) {
          onExist?.register();
        } else {
          ok(reply, 'exists', path);
          stat = reply.body.stat;
          onData?.register();
          w = onData;
        }
        return w === undefined ? stat : { stat, watch: w.promise };
      },
      // The caller went away: its local watcher goes too (as in watchedRead).
      () => {
        onData?.unregister();
        onExist?.unregister();
      },
    );
  });
}

export function getData(ctx: ClientContext, path: string, options: WatchOptions): Promise<NodeData | (NodeData & Watched)> {
  return guard(() => {
    return readData(ctx, 'getData', path, ctx.serverPath(path, 'getData'), options);
  });
}

/** The ensemble configuration (/zookeeper/config, never chrooted). */
export function getConfig(ctx: ClientContext, options: WatchOptions): Promise<NodeData | (NodeData & Watched)> {
  return guard(() => readData(ctx, 'getConfig', CONFIG_NODE, CONFIG_NODE, options));
}

function readData(ctx: ClientContext, op: string, path: string, serverPath: string, options: WatchOptions): Promise<NodeData | (NodeData & Watched)> {
  const call = { op, path, serverPath, wire: 'getData', kind: 'data' } as const;
  return watchedRead(ctx, call, options, (res: GetDataResponse, watch) => withWatch({ data: res.data ?? EMPTY, stat: res.stat }, watch));
}

export function getACL(ctx: ClientContext, path: string, options: CallOptions): Promise<{ acl: ACL[]; stat: Stat }> {
  return guard(() => {
    return ctx.send('getACL', path, 'getACL', { path: ctx.serverPath(path, 'getACL') }, options, (reply) => {
      ok(reply, 'getACL', path);
      const { acl, stat } = reply.body;
      return { acl: acl ?? [], stat };
    });
  });
}

export function getChildren(ctx: ClientContext, path: string, options: WatchOptions): Promise<string[] | ({ children: string[] } & Watched)> {
  return guard(() => {
    const call = { op: 'getChildren', path, serverPath: ctx.serverPath(path, 'getChildren'), wire: 'getChildren', kind: 'child' } as const;
    return watchedRead(ctx, call, options, (res: { children: string[] | null }, watch) => {
      const children = res.children ?? [];
      return watch === undefined ? children : { children, watch };
    });
  });
}

export function getChildrenWithStat(ctx: ClientContext, path: string, options: WatchOptions): Promise<ChildrenWithStat | (ChildrenWithStat & Watched)> {
  return guard(() => {
    const call = { op: 'getChildren', path, serverPath: ctx.serverPath(path, 'getChildren'), wire: 'getChildren2', kind: 'child' } as const;
    return watchedRead(ctx, call, options, (res: GetChildren2Response, watch) => withWatch({ children: res.children ?? [], stat: res.stat }, watch));
  });
}

export function getAllChildrenNumber(ctx: ClientContext, path: string, options: CallOptions): Promise<number> {
  return guard(() => {
    const body = { path: ctx.serverPath(path, 'getAllChildrenNumber') };
    return ctx.send('getAllChildrenNumber', path, 'getAllChildrenNumber', body, options, (reply) => {
      ok(reply, 'getAllChildrenNumber', path);
      return reply.body.totalNumber;
    });
  });
}

export function getEphemerals(ctx: ClientContext, prefix: string, options: CallOptions): Promise<string[]> {
  return guard(() => {
    if (typeof prefix !== 'string' || !prefix.startsWith('/')) {
      throw clientError('BAD_ARGUMENT', 'prefix must start with "/"', { op: 'getEphemerals', path: String(prefix) });
    }
    const chroot = ctx.chroot;
    const serverPrefix = prefix === '/' ? (chroot.root ?? '/') : chroot.toServer(prefix);
    return ctx.send('getEphemerals', prefix, 'getEphemerals', { prefixPath: serverPrefix }, options, (reply) => {
      ok(reply, 'getEphemerals', prefix);
      const paths = reply.body.ephemerals ?? [];
      return paths.filter((p) => chroot.contains(p)).map((p) => chroot.toClient(p));
    });
  });
}

export function sync(ctx: ClientContext, path: string, options: CallOptions): Promise<void> {
  return guard(() => {
    return ctx.send('sync', path, 'sync', { path: ctx.serverPath(path, 'sync') }, options, (reply) => ok(reply, 'sync', path));
  });
}
