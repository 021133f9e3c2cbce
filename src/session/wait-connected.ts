/**
 * Waiting for a session to be usable: resolved once it is connected (or read-only), rejected with the
 * terminal error (AUTHFAILED, SESSIONEXPIRED, CLOSED) if it ends first, or ABORTED when the signal fires.
 * The session calls itself connected only after the server answered its authInfo credentials.
 */

import { clientError, withContext, type ZooKeeperError } from '../errors.js';
import { isConnectedState, type ChangeSource, type SessionState } from './state.js';

export function untilConnected(
  machine: ChangeSource & { readonly state: SessionState },
  terminalError: () => ZooKeeperError | undefined,
  signal?: AbortSignal,
): Promise<void> {
  if (isConnectedState(machine.state)) return Promise.resolve();
  const ended = terminalError();
  if (ended !== undefined) return Promise.reject(withContext(ended, 'connect'));
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      unsubscribe();
      reject(clientError('ABORTED', undefined, { op: 'connect', cause: signal?.reason }));
    };
    const unsubscribe = machine.subscribe((change) => {
      if (isConnectedState(change.to)) {
        unsubscribe();
        signal?.removeEventListener('abort', onAbort);
        resolve();
      } else if (machine.terminal) {
        unsubscribe();
        signal?.removeEventListener('abort', onAbort);
        reject(withContext(terminalError() ?? clientError('CLOSED'), 'connect'));
      }
    });
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}
