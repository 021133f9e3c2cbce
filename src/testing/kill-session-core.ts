/**
 * Expiring a client's session on the server, now, as Curator's `KillSession` does it: a second connection resumes
 * the session with its id and password, then closes it. The server ends the session (its ephemeral nodes go, its
 * watches fire), and the client learns of it on its own: the killer's handshake made the server close the client's
 * connection, and the client's next handshake is answered "expired".
 *
 * No proxy is needed in front of the client. The one race — the client reconnecting and resuming its session between
 * the killer's handshake and its close — is closed by repeating the kill until a handshake with the session's id is
 * itself answered expired, which proves the session is gone on the server; then it waits until the client has seen
 * the loss.
 *
 * The killer's connection needs a transport: the one given in `clientOptions`, else the in-memory server's when the
 * client is connected to one, else the entry's default (node:net for `zkwire/testing`; none for the portable entry).
 */

import { ZooKeeperClient } from '../client.js';
import type { ClientOptions } from '../client/types.js';
import { clientError, isCode, ZooKeeperError } from '../errors.js';
import type { Transport } from '../transport/types.js';
import { inMemoryServerAt } from './in-memory/registry.js';
import { systemClock, type Clock } from '../session/clock.js';
import type { StateChange } from '../session/state.js';

/** Options of {@link killSession}. */
export interface KillSessionOptions {
  /** The server the killer connects to (`host:port`); default the one the client is connected to now. */
  server?: string | undefined;
  /** How long the whole kill may take, the client's noticing included; default 30 s. Then it rejects with TIMEOUT. */
  timeoutMs?: number | undefined;
  /**
   * Options for the killer's own connection: its transport, TLS or SASL settings, when the client needs them to
   * reach the server (the session id, password and timeout are set by killSession).
   */
  clientOptions?: Omit<ClientOptions, 'sessionId' | 'sessionPassword' | 'renewSession'> | undefined;
  /** Timers for the deadline; default the runtime's. */
  clock?: Clock | undefined;
}

/**
 * What {@link killSession} resolves with: the client's `LOST` state change, whose `reason` is the client's
 * {@link ZooKeeperError} (code `SESSIONEXPIRED`), so `lost.reason.code` type-checks.
 */
export interface SessionLost extends StateChange {
  readonly event: 'LOST';
  readonly reason: ZooKeeperError;
}

/** killSession with the entry's default transport for the killer's connection (see the module comment). */
export async function killSessionVia(
  defaultTransport: (() => Transport) | undefined,
  client: ZooKeeperClient,
  options: KillSessionOptions = {},
): Promise<SessionLost> {
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadline = new AbortController();
  const timer = clock.setTimeout(() => deadline.abort(), timeoutMs);
  let stopWatching = (): void => {};
  try {
    if (client.ended) throw clientError('CLOSED', 'the client has ended: it has no session to kill', { op: 'killSession' });
    await client.waitConnected({ signal: deadline.signal });
    const sessionId = client.sessionId;
    const sessionPassword = client.sessionPassword;
    const server = options.server ?? client.connectedServer;
    if (server === undefined) throw clientError('CONNECTIONLOSS', 'the client is not connected to a server', { op: 'killSession' });
    const lost = new Promise<SessionLost>((resolve) => {
      stopWatching = client.onStateChange((change) => {
        if (change.event === 'LOST') resolve(asSessionLost(change));
      });
    });
    let seen: SessionLost | undefined;
    void lost.then((change) => (seen = change));
    const transport = options.clientOptions?.transport ?? inMemoryServerAt(server)?.transport ?? defaultTransport?.();
    if (transport === undefined) {
      throw clientError('BAD_ARGUMENT', `no transport to reach ${server}: pass clientOptions.transport`, { op: 'killSession' });
    }
    const killerOptions: ClientOptions = {
      ...options.clientOptions,
      transport,
      sessionId,
      sessionPassword,
      renewSession: false,
      sessionTimeoutMs: client.negotiatedTimeoutMs,
      signal: deadline.signal,
      ...(options.clock === undefined ? {} : { clock: options.clock }),
    };
    // Each round either closes the session (then the next round proves it gone) or finds it gone already.
    const kill = (async (): Promise<void> => {
      while (seen === undefined) {
        let killer: ZooKeeperClient;
        try {
          killer = await ZooKeeperClient.connect(server, killerOptions);
        } catch (error) {
          if (isCode(error, 'SESSIONEXPIRED')) return;
          throw error;
        }
        await killer.close();
      }
    })();
    kill.catch(() => undefined);
    // Resolve in the same turn as the client's LOST, not once the killer's own close is answered: by then the client
    // may have renewed its session and its recipes joined again, and a test looking at their state right after
    // killSession would see that instead of the expiry (a latch leading again on its new session, for one). A
    // killer still closing finishes by itself.
    await raceDeadline(Promise.race([lost, kill]), deadline.signal);
    return await raceDeadline(lost, deadline.signal);
  } catch (error) {
    if (deadline.signal.aborted) {
      throw clientError('TIMEOUT', `the client did not see its session expire within ${timeoutMs} ms`, {
        op: 'killSession',
        cause: error,
      });
    }
    throw error;
  } finally {
    stopWatching();
    clock.clearTimeout(timer);
  }
}

/** The LOST change with its reason as a ZooKeeperError: the session's own reason is one; anything else is wrapped. */
function asSessionLost(change: StateChange): SessionLost {
  const reason =
    change.reason instanceof ZooKeeperError
      ? change.reason
      : clientError('SESSIONEXPIRED', 'the session expired', { op: 'killSession', cause: change.reason });
  return { ...change, event: 'LOST', reason };
}

function raceDeadline<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      reject,
    );
  });
}
