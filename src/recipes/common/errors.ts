/**
 * The recipe errors' factory, beside the client's `clientError` (src/errors.ts): every error a recipe makes itself
 * goes through one of these, so the message always reads `CODE (op path): detail`, `op` and `path` are always set,
 * an abort is always ABORTED (or the caller's own ZooKeeperError reason), and the end of a session always names
 * why it ended: a closed client is CLOSED, never SESSIONEXPIRED.
 */

import type { ZooKeeperClient } from '../../client.js';
import { clientError, ZooKeeperError, type ErrorCodeName } from '../../errors.js';

/** Any recipe error: `CODE (what path): detail`, with `op` = what, `path` and `cause` when given. */
export function recipeError(code: ErrorCodeName, what: string, path: string | undefined, detail?: string, cause?: unknown): ZooKeeperError {
  return clientError(code, detail, { op: what, path, cause });
}

/** The recipe is in a state that forbids the call (started twice, not started, closed). */
export function illegalState(what: string, path: string, detail: string): ZooKeeperError {
  return recipeError('ILLEGAL_STATE', what, path, detail);
}

/** An argument refused before anything was sent. */
export function badArgument(what: string, path: string | undefined, detail: string): ZooKeeperError {
  return recipeError('BAD_ARGUMENT', what, path, detail);
}

/**
 * What a wait that `signal` stopped rejects with: the signal's reason when it is a ZooKeeperError (a caller that
 * aborts with its own typed reason gets it back; a deadline's signal carries TIMEOUT), otherwise ABORTED with the
 * reason as its cause. The one way a recipe reports an abort.
 */
export function aborted(signal: AbortSignal | undefined, what: string, path?: string): ZooKeeperError {
  const reason: unknown = signal?.reason;
  if (reason instanceof ZooKeeperError) return reason;
  return recipeError('ABORTED', what, path, undefined, reason);
}

/** The code of a session's end as the client's state tells it: CLOSED, AUTHFAILED, or SESSIONEXPIRED. */
export type SessionEndCode = 'SESSIONEXPIRED' | 'CLOSED' | 'AUTHFAILED';

/** Why the client's session is over: a closed client is CLOSED, a refused one AUTHFAILED, anything else expired. */
export function sessionEndCodeOf(client: Pick<ZooKeeperClient, 'state'>): SessionEndCode {
  const state = client.state;
  return state === 'closed' ? 'CLOSED' : state === 'auth-failed' ? 'AUTHFAILED' : 'SESSIONEXPIRED';
}

/** The error for work that cannot go on because the session ended, with the code the client's state gives. */
export function sessionEnded(client: Pick<ZooKeeperClient, 'state'>, what: string, path?: string, detail = 'the ZooKeeper session has ended'): ZooKeeperError {
  return recipeError(sessionEndCodeOf(client), what, path, detail);
}

/** A recipe's own node vanished (its session ended, or someone deleted it) and the retries ran out. */
export function nodeVanished(what: string, path: string, detail: string): ZooKeeperError {
  return recipeError('NONODE', what, path, detail);
}
