/**
 * Idempotent writes (Curator's CURATOR-584): a write retried after a lost reply may meet its own first attempt's
 * effect, which the server reports as an error (NODEEXISTS, BADVERSION, NONODE). Each function here says when that
 * error is our own success, read back from the node where it must be: the node then holds exactly what our write
 * would have left. Anything else, a failed read included, leaves the error as it was.
 */

import { sameBytes } from '../protocol/bytes.js';
import type { Stat } from '../protocol/index.js';
import { ok, type ClientContext } from './context.js';
import type { Recover } from './retry-call.js';

/** delete: the node is gone, whoever took it. */
export const gone: Recover<void> = (err) => (err.code === 'NONODE' ? Promise.resolve() : undefined);

/**
 * After `code`, the node at `serverPath` is read back; `mine` says from its data and stat whether it is as our write
 * left it, and makes the call's result.
 */
export function readBack<T>(
  ctx: ClientContext,
  code: 'NODEEXISTS' | 'BADVERSION',
  path: string,
  serverPath: string,
  data: Uint8Array | null,
  mine: (stat: Stat) => T | undefined,
): Recover<T> {
  return (err) => {
    if (err.code !== code) return undefined;
    const read = ctx.send('getData', path, 'getData', { path: serverPath, watch: false }, {}, (reply) => {
      ok(reply, 'getData', path);
      const { data: held, stat } = reply.body;
      return sameBytes(held ?? new Uint8Array(0), data ?? new Uint8Array(0)) ? mine(stat) : undefined;
    });
    return read.then(
      (result) => {
        if (result === undefined) throw err;
        return result;
      },
      () => {
        throw err;
      },
    );
  };
}
