/** Reading a server's version from srvr/envi text and the refusal rule, without a server. */

import { describe, expect, it } from 'vitest';
import { OpCode } from '../../src/protocol/index.js';
import { needsVersion, parseVersion, refusal } from '../../src/session/server-version.js';

describe('server versions', () => {
  it('reads srvr and envi answers, and nothing else', () => {
    expect(parseVersion('Zookeeper version: 3.8.0-5a02a05eddb59aee6ac762f7ea82e92a68eb9c0f, built on 2022-02-25 08:49 UTC\n')?.text).toBe('3.8.0');
    expect(parseVersion('Environment:\nzookeeper.version=3.5.10-c4e6ef6, built on 2022\n')?.text).toBe('3.5.10');
    expect(parseVersion('srvr is not executed because it is not in the whitelist.\n')).toBeUndefined();
  });

  it('refuses an op only on a server older than the release that introduced it', () => {
    const v = (text: string) => parseVersion(`zookeeper.version=${text}`)!;
    expect(refusal(OpCode.addWatch, v('3.5.9'), 's')?.code).toBe('UNIMPLEMENTED');
    expect(refusal(OpCode.addWatch, v('3.6.0'), 's')).toBeUndefined();
    expect(refusal(OpCode.whoAmI, v('3.6.4'), 's')?.code).toBe('UNIMPLEMENTED');
    expect(refusal(OpCode.whoAmI, v('3.10.0'), 's')).toBeUndefined();
    expect(refusal(OpCode.whoAmI, v('4.0.0'), 's')).toBeUndefined();
    expect(needsVersion(OpCode.getData)).toBe(false);
    expect(refusal(OpCode.getData, v('3.4.14'), 's')).toBeUndefined();
  });
});
