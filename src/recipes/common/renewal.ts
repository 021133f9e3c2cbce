/**
 * Telling a session renewal from the end of the client, for recipes that carry on across expiry. On a renewing
 * client a SESSIONEXPIRED says "the old session is gone and a new one is on its way", not "stop": a call that is
 * safe to repeat can be made again and waits for the new session, as it waits for any reconnect. Only when the
 * client has ended (closed, refused, or renewal off) is there nothing to wait for.
 */

import type { ZooKeeperClient } from '../../client.js';
import { isCode, isRetryable } from '../../errors.js';

/**
 * True when the same call may succeed if simply made again on `client`: the link broke or the server pushed back
 * (isRetryable), or the session expired and the client opens a new one. As with isRetryable, a write that failed
 * so may have been applied: repeat only what is safe to repeat.
 */
export function retryableOn(client: ZooKeeperClient, err: unknown): boolean {
  return isRetryable(err) || (isCode(err, 'SESSIONEXPIRED') && !client.ended);
}
