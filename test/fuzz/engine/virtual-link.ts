/**
 * A client's whole world on virtual time: the hostile server, the in-memory transport between them and the
 * clock both sides run on. `advance` moves time the way the real event loop would (timers in deadline order,
 * every promise and queued delivery handled in between), so minutes of timeouts take milliseconds.
 */

import { HostileServer, type HostileServerOptions } from './hostile-server.js';
import { MemoryTransport } from '../../harness/memory-transport.js';
import type { Prng } from '../../harness/prng.js';
import { ManualClock } from '../../harness/manual-clock.js';

function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class VirtualLink {
  readonly clock = new ManualClock();
  readonly server: HostileServer;
  readonly transport: MemoryTransport;
  /** Set when client and server kept feeding each other without time moving. */
  deliveryStorm = false;

  constructor(rng: Prng, options: HostileServerOptions = {}) {
    this.server = new HostileServer(rng, options);
    this.transport = new MemoryTransport(this.server);
  }

  /** Lets everything react: promises, then queued deliveries, until both sides are quiet. */
  async settle(): Promise<void> {
    for (let i = 0; i < 10_000; i++) {
      await yieldToLoop();
      if (!this.transport.pump()) {
        await yieldToLoop();
        if (!this.transport.pump()) return;
      }
    }
    this.deliveryStorm = true;
  }

  /** Moves virtual time forward by `ms`, firing timers in order and settling after each. */
  async advance(ms: number): Promise<void> {
    const target = this.clock.now() + ms;
    // Whatever is already under way (a connect, a reply in flight) happens before time moves.
    await this.settle();
    while (!this.deliveryStorm && this.clock.storm === undefined && this.clock.fireNext(target)) await this.settle();
    this.clock.setNow(target);
    await this.settle();
  }

  /** Advances (jumping from timer to timer) until `done()` holds or `boundMs` of virtual time passed. */
  async runUntil(done: () => boolean, boundMs: number): Promise<boolean> {
    const start = this.clock.now();
    await this.settle();
    while (!done() && this.clock.now() - start < boundMs && this.clock.storm === undefined && !this.deliveryStorm) {
      const next = this.clock.nextDeadline();
      const left = start + boundMs - this.clock.now();
      await this.advance(next === undefined ? Math.min(1000, left) : Math.max(1, Math.min(next - this.clock.now(), left)));
    }
    return done();
  }
}
