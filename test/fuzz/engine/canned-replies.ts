/**
 * Plausible success bodies for each request opcode, built from the request itself, so the fake server can answer
 * correctly when it chooses to (and the client gets far enough to meet the next lie).
 */

import { OpCode, type MultiRequest, type MultiResponse, type Stat } from '../../../src/protocol/index.js';

export function cannedStat(version = 0): Stat {
  return {
    czxid: 0x10n,
    mzxid: 0x11n,
    ctime: 1_700_000_000_000n,
    mtime: 1_700_000_000_000n,
    version,
    cversion: 0,
    aversion: 0,
    ephemeralOwner: 0n,
    dataLength: 3,
    numChildren: 2,
    pzxid: 0x12n,
  };
}

function pathOf(body: unknown): string {
  const p = (body as { path?: unknown } | undefined)?.path;
  return typeof p === 'string' ? p : '/x';
}

/** The reply body for a successful `opcode` (undefined = header-only reply). */
export function cannedReplyBody(opcode: number, request: unknown): unknown {
  const path = pathOf(request);
  const stat = cannedStat();
  switch (opcode) {
    case OpCode.create:
      return { path };
    case OpCode.create2:
    case OpCode.createContainer:
    case OpCode.createTTL:
      return { path, stat };
    case OpCode.exists:
    case OpCode.setData:
    case OpCode.setACL:
      return { stat };
    case OpCode.getData:
      return { data: new Uint8Array([0x61, 0x62, 0x63]), stat };
    case OpCode.getACL:
      return { acl: [{ perms: 31, id: { scheme: 'world', id: 'anyone' } }], stat };
    case OpCode.getChildren:
      return { children: ['a', 'b'] };
    case OpCode.getChildren2:
      return { children: ['a', 'b'], stat };
    case OpCode.sync:
      return { path };
    case OpCode.getAllChildrenNumber:
      return { totalNumber: 2 };
    case OpCode.getEphemerals:
      return { ephemerals: ['/e1'] };
    case OpCode.whoAmI:
      return { clientInfo: [{ authScheme: 'ip', user: '127.0.0.1' }] };
    case OpCode.addWatch:
      return { err: 0 };
    case OpCode.multi:
    case OpCode.multiRead:
      return multiReply(request as MultiRequest | undefined);
    default:
      return undefined;
  }
}

function multiReply(req: MultiRequest | undefined): MultiResponse {
  const results = (req?.ops ?? []).map((op) => {
    const t = op.header.type;
    const path = pathOf(op.body);
    switch (t) {
      case OpCode.create:
        return { header: { type: t, done: false, err: 0 }, body: { path } };
      case OpCode.create2:
      case OpCode.createContainer:
      case OpCode.createTTL:
        return { header: { type: OpCode.create2, done: false, err: 0 }, body: { path, stat: cannedStat() } };
      case OpCode.setData:
        return { header: { type: t, done: false, err: 0 }, body: { stat: cannedStat(1) } };
      case OpCode.getData:
        return { header: { type: t, done: false, err: 0 }, body: { data: new Uint8Array([1]), stat: cannedStat() } };
      case OpCode.getChildren:
        return { header: { type: t, done: false, err: 0 }, body: { children: ['c'] } };
      default:
        return { header: { type: t, done: false, err: 0 }, body: null };
    }
  });
  return { results, end: { type: -1, done: true, err: -1 } };
}
