/** Argument checks shared by the client and multi: refused with BAD_ARGUMENT before anything is sent. */

import { clientError } from '../errors.js';
import type { ACL } from './acl.js';

/** A znode version: -1 (any) or 0 … 2^31-1; anything else would be silently mangled by the int32 encoding. */
export function checkVersion(version: number | undefined, op: string, path: string): number {
  const v = version ?? -1;
  if (!Number.isInteger(v) || v < -1 || v > 0x7fffffff) {
    throw clientError('BAD_ARGUMENT', `version must be -1 or an integer from 0 to 2147483647, got ${String(v)}`, { op, path });
  }
  return v;
}

/** An ACL list must be a non-empty array (the server would answer INVALIDACL; the Java client refuses it too). */
export function checkAcl(acl: readonly ACL[], op: string, path: string): ACL[] {
  if (!Array.isArray(acl) || acl.length === 0) throw clientError('BAD_ARGUMENT', 'the ACL list must not be empty', { op, path });
  return [...acl];
}

/**
 * A `signal` option: undefined or an AbortSignal. Anything else would throw a TypeError from deep inside the
 * first `addEventListener`, after part of the call had run. Duck-typed, so a signal from another realm passes.
 */
export function checkSignal(signal: unknown, op: string, path?: string): AbortSignal | undefined {
  if (signal === undefined) return undefined;
  const s = signal as Partial<AbortSignal> | null;
  if (s === null || typeof s !== 'object' || typeof s.aborted !== 'boolean' || typeof s.addEventListener !== 'function') {
    throw clientError('BAD_ARGUMENT', `signal must be an AbortSignal, got ${describeValue(signal)}`, { op, path });
  }
  return signal as AbortSignal;
}

/** The largest value the wire's int32 timeout fields hold; also the longest delay a runtime timer honours. */
export const MAX_INT32 = 2 ** 31 - 1;

/**
 * A duration option in ms: a number ≥ `min`. Infinity is allowed where the option means "no deadline"
 * (`infinite: true`); NaN, negatives and non-numbers are refused, never silently turned into "fire at once".
 */
export function checkDuration(name: string, value: unknown, op: string, opts: { min?: number; infinite?: boolean } = {}): number | undefined {
  if (value === undefined) return undefined;
  const min = opts.min ?? 0;
  if (typeof value !== 'number' || !(value >= min) || (value === Infinity && opts.infinite !== true)) {
    const range = `${min === 0 ? 'a non-negative' : `a ≥ ${min}`} number of milliseconds${opts.infinite === true ? ' (or Infinity)' : ''}`;
    throw clientError('BAD_ARGUMENT', `${name} must be ${range}, got ${describeValue(value)}`, { op });
  }
  return value;
}

/** A value as a message shows it: a string quoted, an object by its class name. */
export function describeValue(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : typeof v === 'object' && v !== null ? (v.constructor?.name ?? 'object') : String(v);
}
