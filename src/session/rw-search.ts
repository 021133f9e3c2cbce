/**
 * While the session is on a read-only server, look for a read-write one in the background, as the Java client's
 * ClientCnxn.pingRwServer does: ask the hosts in turn with the `isro` four-letter word (a side connection each; the
 * session's own link is untouched), and report the first that answers `rw`. Between rounds the pause doubles from
 * 100 ms up to 60 s, the Java client's bounds, so an ensemble without a quorum is not hammered.
 */

import type { Endpoint } from '../transport/types.js';
import { Timer, type Clock } from './clock.js';

const FIRST_PAUSE_MS = 100;
const MAX_PAUSE_MS = 60_000;

export class ReadWriteSearch {
  readonly #timer: Timer;
  #running = false;
  #pauseMs = FIRST_PAUSE_MS;
  readonly #hosts: () => readonly Endpoint[];
  /** `isro` on one host: the answer text, or undefined when it could not be asked. */
  readonly #isro: (endpoint: Endpoint) => Promise<string | undefined>;
  /** A read-write server answered: move the session there. */
  readonly #found: (endpoint: Endpoint) => void;

  constructor(
    clock: Clock,
    hosts: () => readonly Endpoint[],
    isro: (endpoint: Endpoint) => Promise<string | undefined>,
    found: (endpoint: Endpoint) => void,
  ) {
    this.#hosts = hosts;
    this.#isro = isro;
    this.#found = found;
    this.#timer = new Timer(clock, () => void this.#round());
  }

  /** Starts searching (idempotent); the first round comes after the shortest pause. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#pauseMs = FIRST_PAUSE_MS;
    this.#timer.arm(this.#pauseMs);
  }

  stop(): void {
    this.#running = false;
    this.#timer.cancel();
  }

  async #round(): Promise<void> {
    for (const endpoint of this.#hosts()) {
      if (!this.#running) return;
      const answer = await this.#isro(endpoint);
      if (!this.#running) return;
      if (answer?.trim() === 'rw') {
        this.stop();
        this.#found(endpoint);
        return;
      }
    }
    this.#pauseMs = Math.min(MAX_PAUSE_MS, this.#pauseMs * 2);
    this.#timer.arm(this.#pauseMs);
  }
}
