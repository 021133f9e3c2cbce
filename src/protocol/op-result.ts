/**
 * The result of a multi()/multiRead() op, with the codec: the client and ZooKeeperError (which carries the per-op
 * results of a failed multi) both need it, and ZooKeeperError sits on the lowest floor, below the client.
 */

import type { ErrorCodeName } from './error-codes.js';
import type { Stat } from './records/stat.js';

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
