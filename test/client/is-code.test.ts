/** isCode: the one test for "a ZooKeeperError with one of these codes" that the client and the recipes share. */

import { describe, expect, it } from 'vitest';
import { clientError, errorFromServer, isCode } from '../../src/errors.js';
import { ErrorCode } from '../../src/protocol/error-codes.js';

describe('isCode', () => {
  it('matches a ZooKeeperError by any of the codes given', () => {
    const noNode = errorFromServer(ErrorCode.NONODE, 'getData', '/a');
    expect(isCode(noNode, 'NONODE')).toBe(true);
    expect(isCode(noNode, 'NODEEXISTS', 'NONODE')).toBe(true);
    expect(isCode(noNode, 'NODEEXISTS')).toBe(false);
    expect(isCode(clientError('ABORTED', 'gone'), 'ABORTED')).toBe(true);
  });

  it('is false for anything that is not a ZooKeeperError, even with a matching code field', () => {
    expect(isCode(Object.assign(new Error('x'), { code: 'NONODE' }), 'NONODE')).toBe(false);
    expect(isCode({ code: 'NONODE' }, 'NONODE')).toBe(false);
    expect(isCode(undefined, 'NONODE')).toBe(false);
  });

  it('with no codes matches nothing', () => {
    expect(isCode(errorFromServer(ErrorCode.NONODE), ...[])).toBe(false);
  });
});
