/**
 * Every session timer derives from the session timeout T. The fractions follow the Java client
 * (ClientCnxn, 3.8) so a zkwire session behaves like the reference one under the server's expiry rules.
 */

export interface SessionTiming {
  /** The session timeout the figures derive from (requested before the handshake, negotiated after). */
  readonly sessionTimeoutMs: number;
  /**
   * Nothing received for this long → the link is declared dead and we reconnect.
   * 2/3·T: the server expires a silent session after ≈T, so we must give up on a dead link early enough
   * to reach another server with T/3 to spare and resume the session there (ClientCnxn.readTimeout).
   */
  readonly readTimeoutMs: number;
  /**
   * Send a ping when nothing was sent for this long. readTimeout/2 = T/3: a healthy server answers each
   * ping, so the receive side sees traffic at least twice per readTimeout and a single lost ping does not
   * kill the link (ClientCnxn's select loop wakes at readTimeout/2; observed pings every ≈T/3).
   */
  readonly pingIntervalMs: number;
  /**
   * How long one connect attempt (TCP + handshake) may take: T/n for n hosts, so one full pass over the
   * ensemble fits in one session timeout (ClientCnxn.connectTimeout).
   */
  readonly connectTimeoutMs: number;
  /**
   * No session (re)established for this long since we last heard from a server → expired, locally.
   * 4/3·T: the server has certainly expired the session by then (it expires after ≈T plus at most one
   * tick), with 1/3·T of slack for clock skew. This is what the Java client does since ZOOKEEPER-4508
   * (apache/zookeeper PR #2058); before it, a client cut off from every server retried forever.
   */
  readonly clientExpiryMs: number;
}

/**
 * Floor for the ping interval and read timeout. Real servers grant at least 2 ticks, but a broken or
 * hostile one could grant a few ms, which would turn the ping timer into a busy loop.
 */
const MIN_TIMER_MS = 10;

export function timingFor(sessionTimeoutMs: number, hostCount: number): SessionTiming {
  const t = Math.max(1, Math.floor(sessionTimeoutMs));
  const readTimeoutMs = Math.max(2 * MIN_TIMER_MS, Math.floor((t * 2) / 3));
  return {
    sessionTimeoutMs: t,
    readTimeoutMs,
    pingIntervalMs: Math.max(MIN_TIMER_MS, Math.floor(readTimeoutMs / 2)),
    connectTimeoutMs: Math.max(1, Math.floor(t / Math.max(1, hostCount))),
    clientExpiryMs: Math.floor((t * 4) / 3),
  };
}
