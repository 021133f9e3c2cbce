/** The typed errors recipes raise for misuse, with the recipe and path in the message. */

import { ZooKeeperError } from '../../errors.js';

/** The recipe is in a state that forbids the call (started twice, not started, closed). */
export function illegalState(what: string, path: string, detail: string): ZooKeeperError {
  return new ZooKeeperError('ILLEGAL_STATE', `ILLEGAL_STATE (${what} ${path}): ${detail}`, { op: what, path });
}

/** An argument refused before anything was sent. */
export function badArgument(what: string, path: string, detail: string): ZooKeeperError {
  return new ZooKeeperError('BAD_ARGUMENT', `BAD_ARGUMENT (${what} ${path}): ${detail}`, { op: what, path });
}
