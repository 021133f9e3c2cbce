/** A real-time clock and a node:net transport that count what is still live, for leak checks after close(). */

import type { Clock, TimerHandle } from '../../src/session/clock.js';
import { nodeTransport } from '../../src/transport/node.js';
import type { ByteStream, Transport } from '../../src/transport/types.js';

export class CountingClock implements Clock {
  private readonly live = new Set<TimerHandle>();

  now(): number {
    return Date.now();
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const handle: TimerHandle = setTimeout(() => {
      this.live.delete(handle);
      fn();
    }, ms);
    this.live.add(handle);
    return handle;
  }

  clearTimeout(handle: TimerHandle): void {
    this.live.delete(handle);
    clearTimeout(handle as NodeJS.Timeout);
  }

  get active(): number {
    return this.live.size;
  }
}

export class CountingTransport implements Transport {
  private readonly inner = nodeTransport();
  open = 0;
  opened = 0;

  async connect(...args: Parameters<Transport['connect']>): Promise<ByteStream> {
    const [endpoint, handlers, options] = args;
    let counted = false;
    const stream = await this.inner.connect(
      endpoint,
      {
        onData: (chunk) => handlers.onData(chunk),
        onClose: (error) => {
          if (counted) this.open--;
          counted = false;
          handlers.onClose(error);
        },
      },
      options,
    );
    counted = true;
    this.open++;
    this.opened++;
    return stream;
  }
}
