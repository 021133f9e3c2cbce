/** Node data and credentials as callers give them: bytes as they are, strings as UTF-8. */

import { clientError } from '../errors.js';
import { utf8Encode } from '../protocol/utf8.js';
import type { Data } from './types.js';

export function toBytes(data: Data, op: string, path?: string): Uint8Array {
  if (data instanceof Uint8Array) return data;
  if (typeof data === 'string') return utf8Encode(data);
  throw clientError('BAD_ARGUMENT', 'data must be a Uint8Array or a string', { op, path });
}
