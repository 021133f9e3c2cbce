/** The kit's fault proxy (src/testing/fault-proxy.ts), on real timers so tests with fake ones still get their delays. */
import { startFaultProxy as startKitFaultProxy, type FaultProxy } from '../../src/testing/fault-proxy.js';
import { realClock } from './real-timers.js';

export type { FaultProxy, ProxyLink, ReplyInfo } from '../../src/testing/fault-proxy.js';

export function startFaultProxy(upstream: { host: string; port: number } | string): Promise<FaultProxy> {
  return startKitFaultProxy(upstream, { clock: realClock });
}
