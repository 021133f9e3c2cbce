/**
 * The requests written on the current connection and not yet answered, in wire order.
 *
 * ZooKeeper answers one connection's requests in the order they were sent, so a reply must match the
 * head of this queue; anything else means the stream is broken and the connection is dropped
 * (PROTOCOL_ERROR). Pings and auth packets never enter it: pings are answered with their own xid -2
 * and auth replies may overtake earlier requests. The replies that may overtake a request here are two refusals
 * sent ahead of the server's pipeline, ZooKeeper 3.4's UNIMPLEMENTED to an op it does not know and a read-only
 * server's NOTREADONLY to a write (see routeFrame): `take` removes them by xid.
 */

export interface InFlight {
  readonly xid: number;
  readonly opcode: number;
}

/** A FIFO with O(1) push/shift (an array with a moving head, compacted now and then). */
export class PendingQueue<T extends InFlight> {
  #items: T[] = [];
  #head = 0;

  get size(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  peek(): T | undefined {
    return this.#items[this.#head];
  }

  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head];
    this.#items[this.#head] = undefined as unknown as T;
    this.#head++;
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }

  /** Removes and returns the request with this xid, wherever it is (undefined when none is pending). */
  take(xid: number): T | undefined {
    const at = this.#items.findIndex((item, i) => i >= this.#head && item.xid === xid);
    if (at < 0) return undefined;
    if (at === this.#head) return this.shift();
    return this.#items.splice(at, 1)[0];
  }

  /** Empties the queue and returns what was in it, oldest first (to settle them all). */
  drain(): T[] {
    const out = this.#items.slice(this.#head);
    this.#items = [];
    this.#head = 0;
    return out;
  }
}

/**
 * The next normal xid: 1, 2, … 2^31-1, then back to 1. Kept across reconnects like the Java client, so a
 * trace never shows the same xid twice for a session until the counter wraps; reserved xids (≤ 0) are
 * never produced.
 */
export class XidCounter {
  #last = 0;

  constructor(start = 0) {
    this.#last = start;
  }

  next(): number {
    this.#last = this.#last >= 0x7fffffff ? 1 : this.#last + 1;
    return this.#last;
  }
}
