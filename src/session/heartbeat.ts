/**
 * Liveness of one connection: a ping when we have sent nothing for `pingIntervalMs`, and a dead-link
 * verdict when we have received nothing for `readTimeoutMs`.
 *
 * Only sends reset the ping timer (a busy reader that only receives still pings), and any received frame
 * resets the read timer — ping replies included, which is what keeps an idle link alive.
 * Timestamps, not re-armed timers per frame: with thousands of frames a second, re-arming a timer for each
 * would cost far more than checking two numbers when a timer fires.
 */

import { Timer, type Clock } from './clock.js';
import type { SessionTiming } from './timing.js';

export interface HeartbeatHooks {
  sendPing(): void;
  /** Nothing received for readTimeout: the link is dead. */
  onReadTimeout(idleMs: number): void;
}

export class Heartbeat {
  #lastSend: number;
  #lastRecv: number;
  readonly #pingTimer: Timer;
  readonly #readTimer: Timer;
  #running = false;
  readonly #clock: Clock;
  #timing: SessionTiming;
  readonly #hooks: HeartbeatHooks;

  constructor(clock: Clock, timing: SessionTiming, hooks: HeartbeatHooks) {
    this.#clock = clock;
    this.#timing = timing;
    this.#hooks = hooks;
    this.#lastSend = this.#lastRecv = clock.now();
    this.#pingTimer = new Timer(clock, () => this.#checkPing());
    this.#readTimer = new Timer(clock, () => this.#checkRead());
  }

  start(timing: SessionTiming): void {
    this.#timing = timing;
    this.#running = true;
    this.#lastSend = this.#lastRecv = this.#clock.now();
    this.#pingTimer.arm(timing.pingIntervalMs);
    this.#readTimer.arm(timing.readTimeoutMs);
  }

  stop(): void {
    this.#running = false;
    this.#pingTimer.cancel();
    this.#readTimer.cancel();
  }

  sent(): void {
    this.#lastSend = this.#clock.now();
  }

  received(): void {
    this.#lastRecv = this.#clock.now();
  }

  #checkPing(): void {
    if (!this.#running) return;
    const idle = this.#clock.now() - this.#lastSend;
    const due = this.#timing.pingIntervalMs - idle;
    if (due <= 0) {
      this.#hooks.sendPing();
      this.#lastSend = this.#clock.now();
      this.#pingTimer.arm(this.#timing.pingIntervalMs);
    } else {
      this.#pingTimer.arm(due);
    }
  }

  #checkRead(): void {
    if (!this.#running) return;
    const idle = this.#clock.now() - this.#lastRecv;
    const left = this.#timing.readTimeoutMs - idle;
    if (left <= 0) {
      this.stop();
      this.#hooks.onReadTimeout(idle);
    } else {
      this.#readTimer.arm(left);
    }
  }
}
