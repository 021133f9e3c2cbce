/**
 * Bad input from the caller: every public ZooKeeperClient method with invalid arguments gets a
 * typed ZooKeeperError — BAD_ARGUMENT for the arguments, ABORTED for an aborted signal, CLOSED after close() —
 * before anything is written (checked with the onFrame trace), and the session is unharmed: a valid call right
 * after succeeds on the same session. Against a real server.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_DATA_SIZE, Op, type ZooKeeperClient } from '../../src/node.js';
import { ZooKeeperError } from '../../src/errors.js';
import { OpCode } from '../../src/protocol/index.js';
import { connectShared, uniquePath } from './helpers.js';
import { describeFrames } from '../../src/session/describe-frames.js';

/** What the caller's bad call should produce, by name; `any` stands in for values TypeScript would refuse. */
type Row = readonly [name: string, call: (zk: ZooKeeperClient, base: string) => Promise<unknown>];
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const any = <T>(v: unknown): T => v as T;

const LIMIT = DEFAULT_MAX_DATA_SIZE; // the client's default maxDataSize
const TOO_BIG = new Uint8Array(LIMIT + 1);
const OPEN = [{ perms: 31, id: { scheme: 'world', id: 'anyone' } }];

const BAD_PATHS: readonly [string, unknown][] = [
  ['empty', ''],
  ['relative', 'a/b'],
  ['trailing slash', '/a/b/'],
  ['embedded NUL', '/a\u0000b'],
  ['empty segment', '/a//b'],
  ['dot segment', '/a/./b'],
  ['dot-dot segment', '/a/../b'],
  ['control character', '/a\u0001b'],
  ['unpaired surrogate', '/a\ud800b'],
  ['not a string', 42],
  ['undefined', undefined],
];

/** Every method that takes a path, called with `p` and otherwise valid arguments. */
const PATH_METHODS: readonly [string, (zk: ZooKeeperClient, p: string) => Promise<unknown>][] = [
  ['create', (zk, p) => zk.create(p, 'x')],
  ['delete', (zk, p) => zk.delete(p)],
  ['exists', (zk, p) => zk.exists(p)],
  ['getData', (zk, p) => zk.getData(p)],
  ['setData', (zk, p) => zk.setData(p, 'x')],
  ['getACL', (zk, p) => zk.getACL(p)],
  ['setACL', (zk, p) => zk.setACL(p, OPEN)],
  ['getChildren', (zk, p) => zk.getChildren(p)],
  ['getChildrenWithStat', (zk, p) => zk.getChildrenWithStat(p)],
  ['getAllChildrenNumber', (zk, p) => zk.getAllChildrenNumber(p)],
  ['sync', (zk, p) => zk.sync(p)],
  ['addWatch', (zk, p) => zk.addWatch(p)],
  ['removeWatches', (zk, p) => zk.removeWatches(p, 'any')],
  ['checkWatches', (zk, p) => zk.checkWatches(p, 'any')],
  ['mkdirp', (zk, p) => zk.mkdirp(p)],
  ['deleteRecursive', (zk, p) => zk.deleteRecursive(p)],
  ['multi create', (zk, p) => zk.multi([{ kind: 'create', path: p }])],
  ['multi delete', (zk, p) => zk.multi([{ kind: 'delete', path: p, version: -1 }])],
  ['multi setData', (zk, p) => zk.multi([{ kind: 'setData', path: p, data: 'x', version: -1 }])],
  ['multi check', (zk, p) => zk.multi([{ kind: 'check', path: p, version: 0 }])],
  ['multiRead getData', (zk, p) => zk.multiRead([{ kind: 'getData', path: p }])],
  ['multiRead getChildren', (zk, p) => zk.multiRead([{ kind: 'getChildren', path: p }])],
];

const BAD_ARGUMENT_ROWS: Row[] = [
  ...PATH_METHODS.flatMap(([method, call]) =>
    BAD_PATHS.map(([what, p]): Row => [`${method} with a bad path (${what})`, (zk) => call(zk, any<string>(p))]),
  ),
  ['getEphemerals with a relative prefix', (zk) => zk.getEphemerals('a')],
  ['getEphemerals with a non-string prefix', (zk) => zk.getEphemerals(any<string>(7))],
  // data
  ['create with data over the limit', (zk, b) => zk.create(`${b}/big`, TOO_BIG)],
  ['setData with data over the limit', (zk, b) => zk.setData(b, TOO_BIG)],
  ['multi create with data over the limit', (zk, b) => zk.multi([{ kind: 'create', path: `${b}/big`, data: TOO_BIG }])],
  ['multi setData with data over the limit', (zk, b) => zk.multi([{ kind: 'setData', path: b, data: TOO_BIG, version: -1 }])],
  ['mkdirp with data over the limit', (zk, b) => zk.mkdirp(`${b}/m/n`, { data: TOO_BIG })],
  ['create with data that is neither bytes nor a string', (zk, b) => zk.create(`${b}/n`, any<string>(123))],
  ['setData with data that is neither bytes nor a string', (zk, b) => zk.setData(b, any<string>({}))],
  // versions: -1 means "any"; every other negative number, a fraction or a value beyond int32 is a mistake
  ...(['delete', 'setData', 'setACL', 'multi delete', 'multi setData', 'multi check'] as const).flatMap((method) =>
    ([-2, -100, 1.5, Number.NaN, 2 ** 31, Number.POSITIVE_INFINITY] as const).map((version): Row => [
      `${method} with version ${version}`,
      (zk, b) => {
        switch (method) {
          case 'delete':
            return zk.delete(b, { version });
          case 'setData':
            return zk.setData(b, 'x', { version });
          case 'setACL':
            return zk.setACL(b, OPEN, { version });
          case 'multi delete':
            return zk.multi([{ kind: 'delete', path: b, version }]);
          case 'multi setData':
            return zk.multi([{ kind: 'setData', path: b, data: 'x', version }]);
          case 'multi check':
            return zk.multi([{ kind: 'check', path: b, version }]);
        }
      },
    ]),
  ),
  // modes
  ['create with an unknown mode', (zk, b) => zk.create(`${b}/m`, null, { mode: any('sticky') })],
  ['multi create with an unknown mode', (zk, b) => zk.multi([{ kind: 'create', path: `${b}/m`, mode: any('sticky') }])],
  // A name on Object.prototype is no mode either (a plain table lookup would find a function there).
  ['create with the mode "toString"', (zk, b) => zk.create(`${b}/m`, null, { mode: any('toString') })],
  ['create with a ttl but not a ttl mode', (zk, b) => zk.create(`${b}/t`, null, { ttl: 1000 })],
  ['create with a ttl and ephemeral mode', (zk, b) => zk.create(`${b}/t`, null, { mode: 'ephemeral', ttl: 1000 })],
  ['multi create with a ttl but not a ttl mode', (zk, b) => zk.multi([{ kind: 'create', path: `${b}/t`, ttl: 1000 }])],
  ['create in ttl mode without a ttl', (zk, b) => zk.create(`${b}/t`, null, { mode: 'ttl' })],
  ['create in ttl mode with ttl 0', (zk, b) => zk.create(`${b}/t`, null, { mode: 'ttl', ttl: 0 })],
  ['create in ttl mode with a negative ttl', (zk, b) => zk.create(`${b}/t`, null, { mode: 'ttl-sequential', ttl: -5 })],
  ['create in ttl mode with a fractional ttl', (zk, b) => zk.create(`${b}/t`, null, { mode: 'ttl', ttl: 1.5 })],
  ['addWatch with an unknown mode', (zk, b) => zk.addWatch(b, { mode: any('sometimes') })],
  ['removeWatches with an unknown type', (zk, b) => zk.removeWatches(b, any('some'))],
  ['checkWatches with an unknown type', (zk, b) => zk.checkWatches(b, any('some'))],
  // ACLs
  ['create with an empty ACL', (zk, b) => zk.create(`${b}/a`, null, { acl: [] })],
  ['setACL with an empty ACL', (zk, b) => zk.setACL(b, [])],
  ['multi create with an empty ACL', (zk, b) => zk.multi([{ kind: 'create', path: `${b}/a`, acl: [] }])],
  ['mkdirp with an empty ACL', (zk, b) => zk.mkdirp(`${b}/a/b`, { acl: [] })],
  ['create with an ACL entry without an id', (zk, b) => zk.create(`${b}/a`, null, { acl: any([{ perms: 31 }]) })],
  ['setACL with an ACL that is not an array', (zk, b) => zk.setACL(b, any('world:anyone'))],
  // multi shapes
  ['multi with ops that are not an array', (zk) => zk.multi(any('create /x'))],
  ['multi with an unknown op kind', (zk, b) => zk.multi([any({ kind: 'rename', path: b })])],
  ['multi with a read op', (zk, b) => zk.multi([any({ kind: 'getData', path: b })])],
  ['multiRead with a write op', (zk, b) => zk.multiRead([any({ kind: 'delete', path: b, version: -1 })])],
  // auth
  ['addAuth with an empty scheme', (zk) => zk.addAuth('', 'u:p')],
  ['addAuth with credentials that are neither bytes nor a string', (zk) => zk.addAuth('digest', any(5))],
];

/** One valid call of every method, with `options` (a signal) merged in where the method takes options. */
function everyMethod(options: { signal?: AbortSignal }): Row[] {
  return [
    ['create', (zk, b) => zk.create(`${b}/c`, 'x', options)],
    ['delete', (zk, b) => zk.delete(b, options)],
    ['exists', (zk, b) => zk.exists(b, options)],
    ['getData', (zk, b) => zk.getData(b, options)],
    ['getConfig', (zk) => zk.getConfig(options)],
    ['setData', (zk, b) => zk.setData(b, 'x', options)],
    ['getACL', (zk, b) => zk.getACL(b, options)],
    ['setACL', (zk, b) => zk.setACL(b, OPEN, options)],
    ['getChildren', (zk, b) => zk.getChildren(b, options)],
    ['getChildrenWithStat', (zk, b) => zk.getChildrenWithStat(b, options)],
    ['getAllChildrenNumber', (zk, b) => zk.getAllChildrenNumber(b, options)],
    ['getEphemerals', (zk) => zk.getEphemerals('/', options)],
    ['sync', (zk, b) => zk.sync(b, options)],
    ['multi', (zk, b) => zk.multi([{ kind: 'check', path: b, version: 0 }], options)],
    ['multiRead', (zk, b) => zk.multiRead([{ kind: 'getData', path: b }], options)],
    ['addAuth', (zk) => zk.addAuth('digest', 'u:p', options)],
    ['whoAmI', (zk) => zk.whoAmI(options)],
    ['addWatch', (zk, b) => zk.addWatch(b, options)],
    ['removeWatches', (zk, b) => zk.removeWatches(b, 'any', options)],
    ['checkWatches', (zk, b) => zk.checkWatches(b, 'any', options)],
    ['mkdirp', (zk, b) => zk.mkdirp(`${b}/m/n`, options)],
    ['deleteRecursive', (zk, b) => zk.deleteRecursive(b, options)],
  ];
}

let zk: ZooKeeperClient;
let base: string;
/** Request frames (pings aside) the client has written. */
let requestsWritten = 0;

beforeAll(async () => {
  zk = await connectShared({
    onFrame: describeFrames((f) => {
      if (f.dir === 'c2s' && f.frame.kind === 'request' && f.frame.opcode !== OpCode.ping) requestsWritten++;
    }),
  });
  base = uniquePath('bad-input');
  await zk.create(base, 'base');
  // A child keeps `base` from ever being deleted by a bad version that slipped through as a real one.
  await zk.create(`${base}/keep`, null);
});

afterAll(async () => {
  await zk.deleteRecursive(base);
  await zk.close();
});

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  return 'resolved';
}

/** Runs a bad call and checks: the typed error, nothing written, and a good call on the same session right after. */
async function expectRefused(call: (zk: ZooKeeperClient, base: string) => Promise<unknown>, code: string): Promise<void> {
  const session = zk.sessionId;
  const before = requestsWritten;
  let p: Promise<unknown>;
  try {
    p = call(zk, base);
  } catch (e) {
    throw new Error(`threw synchronously instead of rejecting: ${String(e)}`);
  }
  const err = await rejection(p);
  // A macrotask later, anything the call queued would have been flushed and traced.
  await new Promise((r) => setTimeout(r, 5));
  expect(err, 'a ZooKeeperError').toBeInstanceOf(ZooKeeperError);
  expect((err as ZooKeeperError).code).toBe(code);
  expect(requestsWritten - before, 'request frames written').toBe(0);
  expect((await zk.getData(base)).stat.version).toBeGreaterThanOrEqual(0);
  expect(zk.sessionId).toBe(session);
  expect(zk.state).toBe('connected');
}

describe('invalid arguments: BAD_ARGUMENT before anything is sent, session unharmed', () => {
  it.each(BAD_ARGUMENT_ROWS)('%s', async (_name, call) => {
    await expectRefused(call, 'BAD_ARGUMENT');
  });
});

describe('a create in a multi checks its arguments as a create does', () => {
  // Several arguments wrong at once: both report the same first problem (mode, path, data, ttl, ACL in that order).
  const CASES: readonly [string, string, Parameters<ZooKeeperClient['create']>[1], Parameters<typeof Op.create>[2]][] = [
    ['unknown mode and a bad path', 'rel', null, { mode: any('sticky') }],
    ['a bad path and data over the limit', '/a//b', TOO_BIG, {}],
    ['data over the limit and a bad ttl', '/ok', TOO_BIG, { mode: 'ttl', ttl: 0 }],
    ['a ttl without a ttl mode and an empty ACL', '/ok', 'x', { ttl: 5, acl: [] }],
    ['an empty ACL', '/ok', 'x', { acl: [] }],
  ];
  it.each(CASES)('%s', async (_name, path, data, options) => {
    const detail = (e: unknown): string => (e as ZooKeeperError).message.replace(/^.*?\): /, '');
    const alone = await rejection(zk.create(path, data, options));
    const inMulti = await rejection(zk.multi([Op.create(path, data, options)]));
    expect((alone as ZooKeeperError).code).toBe('BAD_ARGUMENT');
    expect((inMulti as ZooKeeperError).code).toBe('BAD_ARGUMENT');
    expect(detail(inMulti)).toBe(detail(alone));
  });
});

describe('an already aborted signal: ABORTED before anything is sent', () => {
  it.each(everyMethod({ signal: AbortSignal.abort(new Error('caller gave up')) }))('%s', async (_name, call) => {
    await expectRefused(call, 'ABORTED');
  });
});

describe('use after close: CLOSED, and nothing is sent', () => {
  let closed: ZooKeeperClient;
  let written = 0;
  beforeAll(async () => {
    closed = await connectShared({
      onFrame: describeFrames((f) => {
        if (f.dir === 'c2s' && f.frame.kind === 'request' && f.frame.opcode !== OpCode.ping) written++;
      }),
    });
    await closed.close();
  });

  it.each(everyMethod({}))('%s', async (_name, call) => {
    const before = written;
    const err = await rejection(call(closed, base));
    await new Promise((r) => setTimeout(r, 5));
    expect(err).toBeInstanceOf(ZooKeeperError);
    expect((err as ZooKeeperError).code).toBe('CLOSED');
    expect(written - before).toBe(0);
    expect(closed.state).toBe('closed');
  });

  it('close() again is harmless', async () => {
    await closed.close();
    expect(closed.state).toBe('closed');
  });
});

describe('valid edge cases are not refused', () => {
  it('a sequential create may end in "/" (the server appends the number)', async () => {
    await zk.create(`${base}/seq`, null);
    const p = await zk.create(`${base}/seq/`, null, { mode: 'persistent-sequential' });
    expect(p).toMatch(new RegExp(`^${base}/seq/\\d{10}$`));
  });

  it('version -1 means any version', async () => {
    await zk.create(`${base}/v`, 'a');
    await zk.setData(`${base}/v`, 'b', { version: -1 });
    await zk.delete(`${base}/v`, { version: -1 });
  });
});
