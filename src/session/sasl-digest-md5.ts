/**
 * The client side of SASL DIGEST-MD5 (RFC 2831) as ZooKeeper servers speak it with their JAAS DigestLoginModule:
 * no initial response, the server's digest-challenge, our digest-response, then the server's rspauth, which we
 * check (it proves the server knows the password too). Authentication only (qop=auth): no integrity or privacy
 * layer. The protocol/server names are ZooKeeper's defaults for this mechanism: digest-uri "zookeeper/zk-sasl-md5".
 */

import { clientError, type ZooKeeperError } from '../errors.js';
import { hexEncode } from '../protocol/hex.js';
import { utf8Encode } from '../protocol/index.js';
import { md5 } from './md5.js';
import { saslMechanism, type SaslMechanism } from './sasl-login.js';

/** The username and password of a SASL DIGEST-MD5 login (a `user_<name>="<password>"` of the servers' JAAS file). */
export interface DigestCredentials {
  readonly username: string;
  readonly password: string;
}

/**
 * SASL DIGEST-MD5 for the `sasl` client option, against servers with a JAAS DigestLoginModule:
 * `connect(hosts, { sasl: saslDigestMd5({ username, password }) })`. The session's identity is then
 * `sasl:<username>`. BAD_ARGUMENT for an empty username or a password that is not a string.
 */
export function saslDigestMd5(credentials: DigestCredentials): SaslMechanism {
  const { username, password } = (credentials ?? {}) as Partial<DigestCredentials>;
  if (typeof username !== 'string' || username === '' || typeof password !== 'string') {
    throw clientError('BAD_ARGUMENT', 'SASL DIGEST-MD5 needs a non-empty username and a password string', { op: 'connect' });
  }
  // A copy in a closure: logging the mechanism (or the options holding it) shows no password.
  const own = { username, password };
  return saslMechanism({ name: 'DIGEST-MD5', user: username, exchange: () => new DigestMd5Exchange(own) });
}

const DIGEST_URI = 'zookeeper/zk-sasl-md5';

/** One exchange: `next` takes each server token and returns the token to send, or undefined once done. */
export class DigestMd5Exchange {
  // ES private: logging the exchange shows no password.
  readonly #credentials: DigestCredentials;
  #expectedRspauth: string | undefined;
  #done = false;
  readonly #cnonce: string;
  readonly #digestUri: string;

  constructor(
    credentials: DigestCredentials,
    /** Client nonce (tests pin it); default 16 random bytes as hex. */
    cnonce: string = randomNonce(),
    /** ZooKeeper's for DIGEST-MD5; other services (RFC 2831's examples) use their own. */
    digestUri: string = DIGEST_URI,
  ) {
    this.#credentials = credentials;
    this.#cnonce = cnonce;
    this.#digestUri = digestUri;
  }

  get complete(): boolean {
    return this.#done;
  }

  /** The token to send first: empty (DIGEST-MD5 has no initial response; the server speaks first). */
  initial(): Uint8Array {
    return new Uint8Array(0);
  }

  /** Our answer to a server token; undefined when the exchange is complete. Throws AUTHFAILED on a bad token. */
  next(serverToken: Uint8Array): Uint8Array | undefined {
    const text = latin1(serverToken);
    if (this.#expectedRspauth !== undefined) {
      const rspauth = parseDirectives(text).get('rspauth');
      if (rspauth !== this.#expectedRspauth) throw fail('the server did not prove it knows the password (rspauth mismatch)');
      this.#done = true;
      return undefined;
    }
    const challenge = parseDirectives(text);
    const nonce = challenge.get('nonce');
    if (nonce === undefined) throw fail('the server challenge has no nonce');
    const qops = (challenge.get('qop') ?? 'auth').split(',').map((q) => q.trim());
    if (!qops.includes('auth')) throw fail(`the server offers qop ${qops.join(',')}, not auth`);
    const realm = challenge.get('realm') ?? '';
    const utf8Charset = challenge.get('charset')?.toLowerCase() === 'utf-8';
    const { username, password } = this.#credentials;
    const nc = '00000001';
    const digest = (a2: string): string => {
      const a1 = concat(md5(text8(`${username}:${realm}:${password}`, utf8Charset)), text8(`:${nonce}:${this.#cnonce}`, utf8Charset));
      return hexEncode(md5(text8(`${hexEncode(md5(a1))}:${nonce}:${nc}:${this.#cnonce}:auth:${hexEncode(md5(text8(a2, utf8Charset)))}`, utf8Charset)));
    };
    const response = digest(`AUTHENTICATE:${this.#digestUri}`);
    this.#expectedRspauth = digest(`:${this.#digestUri}`);
    const fields = [
      ...(utf8Charset ? ['charset=utf-8'] : []),
      `username="${quote(username)}"`,
      ...(challenge.has('realm') ? [`realm="${quote(realm)}"`] : []),
      `nonce="${quote(nonce)}"`,
      `nc=${nc}`,
      `cnonce="${quote(this.#cnonce)}"`,
      `digest-uri="${this.#digestUri}"`,
      'maxbuf=65536',
      `response=${response}`,
      'qop=auth',
    ];
    return text8(fields.join(','), utf8Charset);
  }
}

function fail(detail: string): ZooKeeperError {
  return clientError('AUTHFAILED', `SASL DIGEST-MD5: ${detail}`, { op: 'sasl' });
}

/** key=value and key="quoted value" pairs, comma-separated (RFC 2831 §7.1). */
export function parseDirectives(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = /\s*([\w-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,]*))\s*(?:,|$)/gy;
  for (let m = re.exec(text); m !== null && m[0] !== ''; m = re.exec(text)) {
    const key = (m[1] as string).toLowerCase();
    const value = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] ?? '').trim();
    // A repeated realm is allowed (a list to choose from); we take the first, as Java's client does by default.
    if (!out.has(key)) out.set(key, value);
  }
  return out;
}

function quote(s: string): string {
  return s.replace(/(["\\])/g, '\\$1');
}

/**
 * With charset=utf-8, RFC 2831 hashes strings as ISO 8859-1 when every character fits, else as UTF-8; without
 * it, ISO 8859-1 always.
 */
function text8(s: string, utf8Charset: boolean): Uint8Array {
  const fitsLatin1 = [...s].every((c) => (c.codePointAt(0) as number) <= 0xff);
  if (utf8Charset && !fitsLatin1) return utf8Encode(s);
  return Uint8Array.from([...s].map((c) => (c.codePointAt(0) as number) & 0xff));
}

function latin1(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function randomNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return hexEncode(bytes);
}
