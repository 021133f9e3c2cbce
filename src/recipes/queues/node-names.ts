/**
 * Curator's queue node names, byte for byte, and the order each queue takes its items in: the one place that
 * writes or reads a queue node's name.
 *
 * - SimpleDistributedQueue: `qn-<seq>`, taken in text order.
 * - DistributedQueue: `queue-<seq>`, text order.
 * - DistributedPriorityQueue: `queue-<p><seq>` where `<p>` is `1` then 8 upper-case hex digits of the priority for
 *   a priority >= 0, `0` and the hex of its 32-bit two's complement below 0: text order is then priority order, lowest
 *   first, and sequence order within one priority.
 * - DistributedDelayQueue: `queue-|<epoch>|<seq>`, the time (ms since 1970) before which the item must not be
 *   consumed as at least 8 upper-case hex digits between two `|`; ordered by that time (equal times keep the
 *   listing's order, as Java's stable sort does).
 * - DistributedIdQueue: `queue-|<id>|<seq>`, the id with `/` and `|` made `_`; ordered by the name without its id.
 *
 * Java's String.compareTo orders by UTF-16 code unit, as JavaScript's `<` does, so text order is Curator's.
 */

/** SimpleDistributedQueue's node prefix (Curator's PREFIX). */
export const SIMPLE_QUEUE_PREFIX = 'qn-';
/** The node prefix of every DistributedQueue flavour (Curator's QUEUE_ITEM_NAME). */
export const QUEUE_ITEM_NAME = 'queue-';

const SEPARATOR = '|';

/** Curator's text order. */
export function textOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The name part a priority adds (Curator's DistributedPriorityQueue.priorityToString). */
export function priorityName(priority: number): string {
  return (priority >= 0 ? '1' : '0') + hex8(priority >>> 0);
}

/** The name part a delay adds (Curator's DistributedDelayQueue.epochToString). */
export function delayName(epochMs: number): string {
  return SEPARATOR + hex8(epochMs) + SEPARATOR;
}

/** The time a delay-queue node waits for (Curator's getEpoch): 0 when its name carries none. */
export function epochOf(name: string): number {
  const second = name.lastIndexOf(SEPARATOR);
  const first = second > 0 ? name.lastIndexOf(SEPARATOR, second - 1) : -1;
  if (first <= 0 || second <= first + 1) return 0;
  const text = name.slice(first + 1, second);
  // Long.parseLong(text, 16): an optional sign, then hex digits
  return /^[+-]?[0-9a-fA-F]+$/.test(text) ? parseInt(text, 16) : 0;
}

/** The name part an id adds (Curator's DistributedIdQueue.makeIdPath): `|<id>|`, `/` and `|` in the id made `_`. */
export function idName(id: string): string {
  return SEPARATOR + id.replace(/[/|]/g, '_') + SEPARATOR;
}

/** A node's id and its name without the id (Curator's parseId); a name without one is both. */
export function parseIdName(name: string): { readonly id: string; readonly cleaned: string } {
  const first = name.indexOf(SEPARATOR);
  const second = name.indexOf(SEPARATOR, first + 1);
  if (first < 0 || second < 0) return { id: name, cleaned: name };
  return { id: name.slice(first + 1, second), cleaned: name.slice(0, first) + name.slice(second + 1) };
}

/** Id-queue order: by the name without its id, so ids do not change the order items were put in. */
export function idOrder(a: string, b: string): number {
  return textOrder(parseIdName(a).cleaned, parseIdName(b).cleaned);
}

/** Delay-queue order: soonest time first; equal times keep their order (a stable sort). */
export function delayOrder(a: string, b: string): number {
  return epochOf(a) - epochOf(b);
}

/** Java's `%08X` of a non-negative integer: upper-case hex, at least 8 digits. */
function hex8(value: number): string {
  return value.toString(16).toUpperCase().padStart(8, '0');
}
