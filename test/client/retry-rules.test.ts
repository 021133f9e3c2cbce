/** Which requests the retry loop may send again (client/retry-call.ts, mayRepeat): a table, no server. */

import { describe, expect, it } from 'vitest';
import { OpCode } from '../../src/protocol/opcodes.js';
import { mayRepeat } from '../../src/client/retry-call.js';
import { CreateFlags } from '../../src/protocol/index.js';

describe('mayRepeat', () => {
  it.each([
    ['getData', OpCode.getData, { path: '/a', watch: false }, false, true],
    ['exists', OpCode.exists, { path: '/a', watch: true }, false, true],
    ['getChildren2', OpCode.getChildren2, { path: '/a', watch: false }, false, true],
    ['sync', OpCode.sync, { path: '/a' }, false, true],
    ['multiRead', OpCode.multiRead, {}, false, true],
    ['whoAmI', OpCode.whoAmI, {}, false, true],
    ['create persistent', OpCode.create, { flags: CreateFlags.persistent }, false, true],
    ['create2 ephemeral', OpCode.create2, { flags: CreateFlags.ephemeral }, false, true],
    ['container', OpCode.createContainer, { flags: CreateFlags.container }, false, true],
    ['ttl', OpCode.createTTL, { flags: CreateFlags.persistentWithTTL }, false, true],
    ['persistent-sequential', OpCode.create, { flags: CreateFlags.persistentSequential }, true, false],
    ['ephemeral-sequential', OpCode.create2, { flags: CreateFlags.ephemeralSequential }, true, false],
    ['ttl-sequential', OpCode.createTTL, { flags: CreateFlags.persistentSequentialWithTTL }, true, false],
    ['setData versioned', OpCode.setData, { version: 0 }, false, true],
    ['setData unversioned', OpCode.setData, { version: -1 }, false, false],
    ['setData unversioned idempotent', OpCode.setData, { version: -1 }, true, true],
    ['delete unversioned', OpCode.delete, { version: -1 }, false, false],
    ['delete unversioned idempotent', OpCode.delete, { version: -1 }, true, true],
    ['setACL versioned', OpCode.setACL, { version: 3 }, false, true],
    ['multi', OpCode.multi, {}, true, false],
    ['addWatch', OpCode.addWatch, {}, true, false],
    ['removeWatches', OpCode.removeWatches, {}, true, false],
    ['reconfig', OpCode.reconfig, {}, true, false],
  ])('%s', (_name, opcode, body, idempotent, expected) => {
    expect(mayRepeat(opcode, body, idempotent)).toBe(expected);
  });
});
