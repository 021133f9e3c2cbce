import { describe, expect, it } from 'vitest';
import { FeatureBook } from '../../src/client/server-features.js';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { OpCode } from '../../src/protocol/opcodes.js';

// The snapshot is kept between calls (recipes read it on every create): what is learnt must still show at once.
describe('FeatureBook snapshots', () => {
  it('answers the same object until something is learnt, then what was learnt', () => {
    const book = new FeatureBook();
    const first = book.snapshot(undefined);
    expect(first.createWithStat).toBeUndefined();
    expect(book.snapshot(undefined)).toBe(first);
    book.learn(OpCode.create2, ErrorCode.UNIMPLEMENTED);
    expect(book.snapshot(undefined)).toMatchObject({ createWithStat: false, containers: false });
  });

  it('follows an answer that raises the known release', () => {
    const book = new FeatureBook();
    expect(book.snapshot(undefined).multiRead).toBeUndefined();
    book.learn(OpCode.multiRead, ErrorCode.OK);
    expect(book.snapshot(undefined)).toMatchObject({ multiRead: true, createWithStat: true, whoAmI: undefined });
  });

  it('follows the version the session learns, and is frozen', () => {
    const book = new FeatureBook();
    const before = book.snapshot(undefined);
    const after = book.snapshot({ major: 3, minor: 4, patch: 13, text: '3.4.13' });
    expect(before.version).toBeUndefined();
    expect(after).toMatchObject({ version: '3.4.13', createWithStat: false });
    expect(Object.isFrozen(after)).toBe(true);
  });
});
