/**
 * multi (atomic writes + version checks) and multiRead: op builders and result mapping.
 *
 * Builders only describe the op with client paths; the client validates them, applies the chroot and
 * picks opcodes when the multi is sent. A failed multi comes back with err 0 in its header and every
 * result an error (the failing op with its code, earlier ops 0, later ops RUNTIMEINCONSISTENCY); the
 * client turns that into a ZooKeeperError carrying all per-op results.
 */

import type { ACL } from './acl.js';
import type { CreateMode } from './create-mode.js';
import type { Data } from './types.js';

export type { OpResult } from '../protocol/op-result.js';

/** One write of a `multi()`: built with `Op.create`, `Op.delete`, `Op.setData` or `Op.check`. */
export type WriteOp =
  | { readonly kind: 'create'; readonly path: string; readonly data?: Data | null | undefined; readonly mode?: CreateMode | undefined; readonly acl?: readonly ACL[] | undefined; readonly ttl?: number | undefined; readonly compressed?: boolean | undefined }
  | { readonly kind: 'delete'; readonly path: string; readonly version: number }
  | { readonly kind: 'setData'; readonly path: string; readonly data: Data; readonly version: number; readonly compressed?: boolean | undefined }
  | { readonly kind: 'check'; readonly path: string; readonly version: number };

/** One read of a `multiRead()`: built with `Op.getData` or `Op.getChildren`. */
export type ReadOp =
  | { readonly kind: 'getData'; readonly path: string; readonly decompressed?: boolean | undefined }
  | { readonly kind: 'getChildren'; readonly path: string };

/** The op builders' type, spelled out so the public API has an explicit type (JSR's no-slow-types rule). */
export interface OpBuilders {
  /**
   * A create in a multi; `options.mode` defaults to persistent, `options.acl` to the client's default ACL;
   * `options.compressed` as `create`'s.
   */
  create(path: string, data?: Data | null, options?: { mode?: CreateMode; acl?: readonly ACL[]; ttl?: number; compressed?: boolean }): WriteOp;
  /** A delete in a multi; version -1 (the default) matches any version. */
  delete(path: string, version?: number): WriteOp;
  /** A setData in a multi; version -1 (the default) matches any version; `options.compressed` as `setData`'s. */
  setData(path: string, data: Data, version?: number, options?: { compressed?: boolean }): WriteOp;
  /** A version check in a multi: the whole multi fails with BADVERSION unless the node is at `version`. */
  check(path: string, version: number): WriteOp;
  /** A getData in a multiRead; `options.decompressed` as `getData`'s. */
  getData(path: string, options?: { decompressed?: boolean }): ReadOp;
  /** A getChildren in a multiRead. */
  getChildren(path: string): ReadOp;
}

/** Builders for multi() and multiRead() ops. */
export const Op: OpBuilders = {
  create(path: string, data?: Data | null, options: { mode?: CreateMode; acl?: readonly ACL[]; ttl?: number; compressed?: boolean } = {}): WriteOp {
    return { kind: 'create', path, data, mode: options.mode, acl: options.acl, ttl: options.ttl, compressed: options.compressed };
  },
  delete(path: string, version = -1): WriteOp {
    return { kind: 'delete', path, version };
  },
  setData(path: string, data: Data, version = -1, options: { compressed?: boolean } = {}): WriteOp {
    return { kind: 'setData', path, data, version, compressed: options.compressed };
  },
  check(path: string, version: number): WriteOp {
    return { kind: 'check', path, version };
  },
  getData(path: string, options: { decompressed?: boolean } = {}): ReadOp {
    return { kind: 'getData', path, decompressed: options.decompressed };
  },
  getChildren(path: string): ReadOp {
    return { kind: 'getChildren', path };
  },
};
