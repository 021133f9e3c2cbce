/**
 * The client options checked at run time, as plain JavaScript passes them: an unknown key is a BAD_ARGUMENT naming
 * the nearest known one (it used to be ignored, `tls` included), and a `tls` a transport cannot honour is refused
 * before any connection is made.
 */

import { describe, expect, it } from 'vitest';
import { ZooKeeperError } from '../../src/errors.js';
import { ZooKeeperClient as PortableClient, streamSocketTransport, type Transport } from '../../src/index.js';
import { connect, ZooKeeperClient } from '../../src/node.js';

/** The error the constructor throws for `options` (nothing connects: 127.0.0.1:1 is never reached). */
function refusal(options: object, client: typeof PortableClient = ZooKeeperClient): ZooKeeperError {
  try {
    const made = new client('127.0.0.1:1', options as never);
    void made.close();
  } catch (e) {
    if (e instanceof ZooKeeperError) return e;
    throw e;
  }
  throw new Error('the options were accepted');
}

const neverConnects: Transport = { connect: () => Promise.reject(new Error('not for this test')) };

describe('client options are checked at run time', () => {
  it.for([
    [{ tsl: true }, /no option "tsl": did you mean tls\?/],
    [{ sessionTimeout: 5000 }, /did you mean sessionTimeoutMs\?/],
    [{ ssl: { ca: 'x' } }, /did you mean tls\?/],
    [{ tls: { ca: 'x', crt: 'y' } }, /options.tls has no option "crt": did you mean cert\?/],
    [{ zzzzzzzzzz: 1 }, /known: sessionTimeoutMs, transport, tls/],
  ] as const)('%o is BAD_ARGUMENT: %s', ([options, says]) => {
    const error = refusal(options);
    expect(error.code).toBe('BAD_ARGUMENT');
    expect(error.message).toMatch(says);
  });

  it('refuses a tls that is neither true nor an object, bytes for PEM text, and a certificate without its key', () => {
    expect(refusal({ tls: 'yes' }).message).toMatch(/tls must be true or an object/);
    expect(refusal({ tls: { cert: new Uint8Array(4), key: 'k' } }).message).toMatch(/tls.cert must be a string \(PEM text/);
    expect(refusal({ tls: { cert: 'c' } }).message).toMatch(/tls.cert and tls.key go together/);
  });

  it('refuses tls with a transport that cannot speak it, and what stream sockets cannot do', () => {
    expect(refusal({ transport: neverConnects, tls: true }, PortableClient).message).toMatch(/has no withTls/);
    const sockets = streamSocketTransport(() => {
      throw new Error('not for this test');
    });
    expect(refusal({ transport: sockets, tls: { ca: 'pem' } }, PortableClient).message).toMatch(/tls.ca: stream sockets/);
  });

  it('connect() rejects with the same typed error rather than throwing', async () => {
    const error: unknown = await connect('127.0.0.1:1', { tsl: true } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZooKeeperError);
    expect((error as ZooKeeperError).code).toBe('BAD_ARGUMENT');
  });
});
