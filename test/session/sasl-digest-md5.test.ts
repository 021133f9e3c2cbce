/** MD5 and the DIGEST-MD5 client exchange, without a server: against node:crypto and RFC 2831's worked example. */

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { md5 } from '../../src/session/md5.js';
import { DigestMd5Exchange, parseDirectives } from '../../src/session/sasl-digest-md5.js';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined): string => new TextDecoder().decode(b);

describe('md5', () => {
  it('matches node:crypto across block boundaries', () => {
    for (const n of [0, 1, 3, 55, 56, 57, 63, 64, 65, 1000]) {
      const input = Uint8Array.from({ length: n }, (_, i) => (i * 31 + 7) & 0xff);
      expect(Buffer.from(md5(input)).toString('hex'), `length ${n}`).toBe(createHash('md5').update(input).digest('hex'));
    }
  });
});

describe('DIGEST-MD5 exchange', () => {
  it("computes RFC 2831's example response and checks its rspauth", () => {
    const exchange = new DigestMd5Exchange({ username: 'chris', password: 'secret' }, 'OA6MHXh6VqTrRk', 'imap/elwood.innosoft.com');
    expect(exchange.initial()).toEqual(new Uint8Array(0));
    const challenge = 'realm="elwood.innosoft.com",nonce="OA6MG9tEQGm2hh",qop="auth",algorithm=md5-sess,charset=utf-8';
    const response = parseDirectives(text(exchange.next(bytes(challenge))));
    expect(response.get('response')).toBe('d388dad90d4bbd760a152321f2143af7');
    expect(response.get('username')).toBe('chris');
    expect(response.get('digest-uri')).toBe('imap/elwood.innosoft.com');
    expect(exchange.complete).toBe(false);
    expect(exchange.next(bytes('rspauth=ea40f60335c427b5527b84dbabcdfffd'))).toBeUndefined();
    expect(exchange.complete).toBe(true);
  });

  it('refuses a server that cannot prove the password (wrong rspauth) with AUTHFAILED', () => {
    const exchange = new DigestMd5Exchange({ username: 'chris', password: 'secret' }, 'OA6MHXh6VqTrRk', 'imap/elwood.innosoft.com');
    exchange.next(bytes('realm="elwood.innosoft.com",nonce="OA6MG9tEQGm2hh",qop="auth",charset=utf-8'));
    expect(() => exchange.next(bytes('rspauth=00000000000000000000000000000000'))).toThrow(expect.objectContaining({ code: 'AUTHFAILED' }));
  });
});
