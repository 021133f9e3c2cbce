/**
 * Credentials must not leak into the places people paste into issues: frame traces (the onFrame option), errors
 * (message, String(), JSON, util.inspect, the cause chain) and state-change reasons. Each credential is a fresh
 * random string, searched for as text, as hex of its bytes and as base64.
 */

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { digestAcl } from '../../src/client/acl.js';
import { OpCode, toJsonValue } from '../../src/protocol/index.js';
import type { StateChange } from '../../src/session/state.js';
import { describeFrames, type DescribedFrameTrace } from '../../src/session/describe-frames.js';
import { bytesContain, connectShared, errorOf, leaksOf, uniquePath } from './helpers.js';

const newSecret = (): string => `pw-${randomUUID()}`;

describe('credentials stay out of traces', () => {
  it('no frame summary, path or decode error of a traced session shows a password', async () => {
    const [inOptions, added, rejected] = [newSecret(), newSecret(), newSecret()];
    const traces: DescribedFrameTrace[] = [];
    const zk = await connectShared({ authInfo: [{ scheme: 'digest', auth: `opt:${inOptions}` }], onFrame: describeFrames((t) => traces.push(t)) });
    await zk.addAuth('digest', `added:${added}`);
    const path = uniquePath('sec');
    await zk.create(path, 'x', { acl: [digestAcl('opt', inOptions)] });
    await zk.getACL(path);
    await zk.whoAmI();
    await zk.delete(path);
    await errorOf(zk.addAuth('no-such-scheme', `bad:${rejected}`));
    await zk.close();

    const authFrames = traces.filter((t) => t.dir === 'c2s' && t.frame.opcode === OpCode.auth);
    expect(authFrames, 'three AuthPackets were traced').toHaveLength(3);
    for (const secret of [inOptions, added, rejected]) {
      for (const t of traces) {
        const text = [t.frame.summary, t.frame.path ?? '', t.frame.error ?? '', t.frame.op ?? ''].join('\n');
        expect(leaksOf(text, secret), `${t.dir} ${t.frame.summary}`).toEqual([]);
      }
    }
    // The summary still says what happened, without the secret: the scheme and the size.
    expect(authFrames.map((t) => t.frame.summary)).toEqual([
      expect.stringMatching(/scheme=digest.*\d+B/),
      expect.stringMatching(/scheme=digest.*\d+B/),
      expect.stringMatching(/scheme=no-such-scheme.*\d+B/),
    ]);
  });

  it("an AuthPacket's trace record (decoded record and bytes) does not carry the credential", async () => {
    // A trace record is what a tap writes to a JSON-lines file (toJsonValue(frame.decoded), the bytes as hex): a
    // password in either ends up on disk and in bug reports. The length may stay; the characters must not.
    const secret = newSecret();
    const traces: DescribedFrameTrace[] = [];
    await using zk = await connectShared({ onFrame: describeFrames((t) => traces.push(t)) });
    await zk.addAuth('digest', `tap:${secret}`);
    const auth = traces.find((t) => t.dir === 'c2s' && t.frame.opcode === OpCode.auth);
    expect(auth).toBeDefined();
    expect(leaksOf(JSON.stringify(toJsonValue(auth?.frame.decoded)), secret)).toEqual([]);
    expect(bytesContain(auth?.bytes ?? new Uint8Array(0), secret)).toBe(false);
  });
});

describe('credentials stay out of errors and state changes', () => {
  it('AUTHFAILED, the errors after it and the auth-failed state change never show the rejected credential', async () => {
    const secret = newSecret();
    const zk = await connectShared();
    const changes: StateChange[] = [];
    zk.onStateChange((c) => changes.push(c));
    const failed = await errorOf(zk.addAuth('no-such-scheme', `who:${secret}`));
    const later = await errorOf(zk.getData('/'));
    const laterAuth = await errorOf(zk.addAuth('digest', `again:${secret}`));
    await zk.close();
    for (const [name, value] of Object.entries({ failed, later, laterAuth, changes })) {
      expect(leaksOf(value, secret), name).toEqual([]);
    }
  });

  it('NOAUTH from a protected node shows neither the reader nor the owner credential', async () => {
    const [owner, reader] = [newSecret(), newSecret()];
    await using zk = await connectShared({ authInfo: [{ scheme: 'digest', auth: `owner:${owner}` }] });
    const path = uniquePath('sec');
    await zk.create(path, 'x', { acl: [digestAcl('owner', owner)] });
    await using other = await connectShared({ authInfo: [{ scheme: 'digest', auth: `reader:${reader}` }] });
    const errors = [await errorOf(other.getData(path)), await errorOf(other.setData(path, 'y')), await errorOf(other.delete(`${path}/none`))];
    for (const secret of [owner, reader]) expect(leaksOf(errors, secret)).toEqual([]);
    await zk.delete(path);
  });

  it('argument errors and calls after close do not echo the credential', async () => {
    const secret = newSecret();
    const zk = await connectShared();
    const errors = [
      await errorOf(zk.addAuth('', `x:${secret}`)),
      await errorOf(zk.addAuth('digest', `x:${secret}`, { signal: AbortSignal.abort() })),
      await errorOf(zk.addAuth(undefined as unknown as string, `x:${secret}`)),
    ];
    await zk.close();
    errors.push(await errorOf(zk.addAuth('digest', `x:${secret}`)));
    expect(errors.map((e) => e.code)).toEqual(['BAD_ARGUMENT', 'ABORTED', 'BAD_ARGUMENT', 'CLOSED']);
    expect(leaksOf(errors, secret)).toEqual([]);
  });

  it('inspecting or serialising the client object does not show its credentials', async () => {
    // console.log(client) while debugging, or a logger that serialises whatever it is handed, must not print them.
    const [inOptions, added] = [newSecret(), newSecret()];
    await using zk = await connectShared({ authInfo: [{ scheme: 'digest', auth: `opt:${inOptions}` }] });
    await zk.addAuth('digest', `added:${added}`);
    for (const secret of [inOptions, added]) expect(leaksOf(zk, secret)).toEqual([]);
  });
});
