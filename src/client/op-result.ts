/**
 * The result of a multi()/multiRead() op, in a module of its own that imports only protocol types: the client
 * and ZooKeeperError (which carries the per-op results of a failed multi) both need it, and neither may import
 * the other's module for it.
 */

import type { ErrorCodeName } from '../protocol/error-codes.js';
import type { Stat } from '../protocol/records/stat.js';

/** The result of one op of a `multi()` or `multiRead()`, in the order of the ops. */
export type OpResult =
  | { readonly type: 'create'; readonly path: string; readonly stat: Stat | undefined }
  | { readonly type: 'delete' }
  | { readonly type: 'setData'; readonly stat: Stat }
  | { readonly type: 'check' }
  | { readonly type: 'getData'; readonly data: Uint8Array; readonly stat: Stat }
  | { readonly type: 'getChildren'; readonly children: string[] }
  /** An op of a failed multi, or a failed multiRead op: `code` OK for ops before the failing one. */
  | { readonly type: 'error'; readonly code: ErrorCodeName | 'OK'; readonly errno: number };
