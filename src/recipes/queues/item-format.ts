/**
 * The bytes of a DistributedQueue node, as Curator's ItemSerializer writes them, so a zkwire consumer reads what a
 * Curator producer put and the other way round. One node holds one or more items (Curator's putMulti):
 *
 *   int32 version 0x00010001, then per item: byte 0x01, int32 length, the item's bytes; then byte 0x02 (end).
 *
 * All integers big-endian (Java's DataOutputStream). What each item's bytes mean is the queue's serializer's
 * business (Curator's QueueSerializer).
 */

import { utf8Decode, utf8Encode } from '../../protocol/utf8.js';
import { recipeError } from '../common/errors.js';

const VERSION = 0x00010001;
const ITEM_OPCODE = 0x01;
const EOF_OPCODE = 0x02;

/** Curator's QueueSerializer: an item to bytes and back. */
export interface QueueSerializer<T> {
  /** The bytes an item is stored as (one item of a queue node). */
  serialize(item: T): Uint8Array;
  /** The item stored as `bytes` (what a Curator producer's serializer wrote, for a queue shared with Curator). */
  deserialize(bytes: Uint8Array): T;
}

/** Items as raw bytes (copied both ways, so a caller's buffer can be reused). */
export const bytesQueueSerializer: QueueSerializer<Uint8Array> = {
  serialize: (item) => item.slice(),
  deserialize: (bytes) => bytes.slice(),
};

/** Items as UTF-8 text: what Java's `new String(bytes, UTF_8)` / `getBytes(UTF_8)` serializer writes. */
export const utf8QueueSerializer: QueueSerializer<string> = {
  serialize: (item) => utf8Encode(item),
  deserialize: (bytes) => utf8Decode(bytes),
};

/** The node data for `items` (each already serialized), byte for byte as Curator's ItemSerializer.serialize. */
export function encodeQueueItems(items: readonly Uint8Array[]): Uint8Array {
  const size = 4 + items.reduce((sum, item) => sum + 5 + item.length, 0) + 1;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setInt32(0, VERSION);
  let at = 4;
  for (const item of items) {
    out[at] = ITEM_OPCODE;
    view.setInt32(at + 1, item.length);
    out.set(item, at + 5);
    at += 5 + item.length;
  }
  out[at] = EOF_OPCODE;
  return out;
}

/**
 * The items in a queue node's data (each still serialized). Data Curator would refuse (another version, an
 * unknown opcode, a negative or overlong length, no end marker) is a BAD_ARGUMENT naming the node, never a RangeError.
 */
export function decodeQueueItems(data: Uint8Array, path?: string): Uint8Array[] {
  const corrupt = (detail: string): Error => recipeError('BAD_ARGUMENT', 'DistributedQueue.decode', path, `not a Curator queue item: ${detail}`);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (data.length < 4) throw corrupt('shorter than its version header');
  const version = view.getInt32(0);
  if (version !== VERSION) throw corrupt(`version ${version}, expected ${VERSION}`);
  const items: Uint8Array[] = [];
  for (let at = 4; ; ) {
    if (at >= data.length) throw corrupt('no end marker');
    const opcode = data[at];
    if (opcode === EOF_OPCODE) return items;
    if (opcode !== ITEM_OPCODE) throw corrupt(`opcode ${String(opcode)} at byte ${at}`);
    if (at + 5 > data.length) throw corrupt('an item length cut short');
    const size = view.getInt32(at + 1);
    if (size < 0 || at + 5 + size > data.length) throw corrupt(`item length ${size} at byte ${at + 1}`);
    items.push(data.slice(at + 5, at + 5 + size));
    at += 5 + size;
  }
}
