/** What a Session is made with: the client's options, checked and filled in by client/connecting.ts. */

import type { Endpoint, Transport } from '../transport/types.js';
import type { Clock } from './clock.js';
import type { Resolver } from './resolve.js';
import type { RetryPolicy } from './retry-policy.js';
import type { SaslMechanism } from './sasl-login.js';
import type { ServerVersion } from './server-version.js';
import type { RequestObserver } from './outgoing.js';
import type { FrameListener } from './trace.js';

export interface SessionOptions {
  readonly hosts: readonly Endpoint[];
  readonly transport: Transport;
  /** Requested session timeout (ms); the server clamps it to [2, 20] ticks by default. */
  readonly sessionTimeoutMs: number;
  /** Accept a read-only server (one cut off from its quorum) and enter `connected-read-only`. */
  readonly canBeReadOnly?: boolean;
  readonly clock?: Clock;
  /** Largest frame accepted from a server (payload bytes). */
  readonly maxFrameSize?: number;
  readonly reconnect?: RetryPolicy;
  readonly onFrame?: FrameListener;
  /** Wraps every caller's request: the client's stats and diagnostics channels (client/observe.ts). */
  readonly observe?: RequestObserver;
  /** Randomness for host shuffling and rebalancing (tests pin it). */
  readonly random?: () => number;
  /** Resolves each host name before each connect attempt (see resolve.ts); default the transport's own, if any. */
  readonly resolver?: Resolver;
  /** How long close() waits for the closeSession reply; default min(readTimeout, 2000 ms). */
  readonly closeTimeoutMs?: number;
  /** Authentication sent on every connection before anything else. */
  readonly authInfo?: readonly { readonly scheme: string; readonly auth: Uint8Array }[];
  /**
   * The newest zxid this client has seen, from an earlier session of the same client: a server that has not caught
   * up with it refuses the handshake, so a new session never shows an older view than the last one did.
   */
  readonly lastZxidSeen?: bigint;
  /** Resume an existing session instead of creating one. */
  readonly sessionId?: bigint;
  readonly sessionPassword?: Uint8Array;
  /** SASL authentication run on every connection before anything else. */
  readonly sasl?: SaslMechanism;
  /** Every server's version, when the application knows it: no server is asked (see learnVersion). */
  readonly serverVersion?: ServerVersion;
  /** A request written and unanswered this long fails with REQUESTTIMEOUT and its connection is dropped (see RequestWatch). */
  readonly requestTimeoutMs?: number;
}
