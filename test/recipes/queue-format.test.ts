/** Curator's queue item format and node names, byte for byte, without a server. */

import { describe, expect, it } from 'vitest';
import { decodeQueueItems, encodeQueueItems } from '../../src/recipes/queues/item-format.js';
import { delayName, delayOrder, epochOf, idName, idOrder, parseIdName, priorityName, textOrder } from '../../src/recipes/queues/node-names.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('Curator queue item format (ItemSerializer)', () => {
  it('writes the version, then opcode 1 and a big-endian length per item, then opcode 2', () => {
    const data = encodeQueueItems([new Uint8Array([0x61, 0x62]), new Uint8Array(0)]);
    expect(hex(data)).toBe('00010001' + '01' + '00000002' + '6162' + '01' + '00000000' + '02');
    expect(decodeQueueItems(data).map(hex)).toEqual(['6162', '']);
  });

  it('refuses what Curator refuses, as BAD_ARGUMENT naming the node, never a RangeError', () => {
    const good = encodeQueueItems([new Uint8Array([1, 2, 3])]);
    const cases = [
      new Uint8Array([0, 1]), // no full version
      Uint8Array.from([0, 1, 0, 2, 2]), // another version
      Uint8Array.from([0, 1, 0, 1, 7]), // an unknown opcode
      Uint8Array.from([0, 1, 0, 1, 1, 0xff, 0xff, 0xff, 0xff, 2]), // a negative length
      good.slice(0, good.length - 1), // no end marker
      good.slice(0, 7), // a length cut short
      good.slice(0, 10), // an item cut short
    ];
    for (const data of cases) {
      let caught: unknown;
      try {
        decodeQueueItems(data, '/q/queue-0000000001');
      } catch (err) {
        caught = err;
      }
      expect(caught, hex(data)).toMatchObject({ code: 'BAD_ARGUMENT', path: '/q/queue-0000000001' });
    }
  });
});

describe('Curator queue node names', () => {
  it('priority: 1 and 8 hex digits for >= 0, 0 and the 32-bit two’s complement below', () => {
    expect([0, 5, 10, 2 ** 31 - 1, -1, -5, -(2 ** 31)].map(priorityName)).toEqual([
      '100000000',
      '100000005',
      '10000000A',
      '17FFFFFFF',
      '0FFFFFFFF',
      '0FFFFFFFB',
      '080000000',
    ]);
    const names = [3, -2, 0, -(2 ** 31), 2 ** 31 - 1].map((p) => `queue-${priorityName(p)}0000000001`);
    expect(names.sort(textOrder).map((n) => n.slice(6, 15))).toEqual(['080000000', '0FFFFFFFE', '100000000', '100000003', '17FFFFFFF']);
  });

  it('delay: the time in hex between bars, read back as Curator reads it, soonest first', () => {
    const at = 1_764_000_000_123;
    expect(delayName(at)).toBe(`|${at.toString(16).toUpperCase()}|`);
    expect(delayName(255)).toBe('|000000FF|');
    expect(epochOf(`queue-${delayName(at)}0000000007`)).toBe(at);
    expect(epochOf('queue-0000000007')).toBe(0);
    expect(epochOf('queue-|zz|0000000007')).toBe(0);
    const names = [`queue-${delayName(300)}0000000001`, `queue-${delayName(100)}0000000002`, 'queue-0000000003'];
    expect([...names].sort(delayOrder)).toEqual([names[2], names[1], names[0]]);
  });

  it('id: bars and slashes made underscores; ordered by the name without the id', () => {
    expect(idName('a/b|c')).toBe('|a_b_c|');
    expect(parseIdName('queue-|job-7|0000000003')).toEqual({ id: 'job-7', cleaned: 'queue-0000000003' });
    expect(parseIdName('queue-0000000003')).toEqual({ id: 'queue-0000000003', cleaned: 'queue-0000000003' });
    expect(['queue-|a|0000000002', 'queue-|z|0000000001'].sort(idOrder)).toEqual(['queue-|z|0000000001', 'queue-|a|0000000002']);
  });
});
