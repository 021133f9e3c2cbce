/**
 * The Kerberos codecs without a KDC: DER values round-trip and every truncation of a valid message is a typed
 * BAD_REPLY (never a RangeError); a KRB-ERROR is read with its name and its ETYPE-INFO2 salts; keytabs and krb5.conf
 * parse; an expired TGT is refused before any request goes out.
 */

import { describe, expect, it } from 'vitest';
import { app, bits32, ctx, DerValue, int, kstring, ktime, octets, oid, seq } from '../../src/kerberos/asn1/der.js';
import { KerberosError } from '../../src/kerberos/errors.js';
import { keysFor, parseKeytab } from '../../src/kerberos/keytab.js';
import { parseKdcAddress } from '../../src/kerberos/kdc-client.js';
import { parseKrb5Config } from '../../src/kerberos/krb5-conf.js';
import { requestServiceTicket } from '../../src/kerberos/login.js';
import { encodePrincipalName, seqOf } from '../../src/kerberos/messages/common.js';
import { decodeEtypeInfo2 } from '../../src/kerberos/messages/kdc-rep.js';
import { decodeKrbError, isKrbError } from '../../src/kerberos/messages/krb-error.js';
import { encodeKdcReq, encodeKdcReqBody } from '../../src/kerberos/messages/kdc-req.js';
import { parsePrincipal } from '../../src/kerberos/sasl-gssapi.js';
import { hexEncode, utf8Encode } from '../../src/protocol/index.js';

const hex = (s: string): Uint8Array => Uint8Array.from(s.match(/../g) ?? [], (b) => parseInt(b, 16));

describe('DER', () => {
  it('integers take the minimal two-complement form and read back', () => {
    const cases: [number, string][] = [[0, '020100'], [127, '02017f'], [128, '02020080'], [-1, '0201ff'], [-129, '0202ff7f'], [0xffffffff, '020500ffffffff'], [5, '020105']];
    for (const [n, encoded] of cases) {
      expect(hexEncode(int(n))).toBe(encoded);
      expect(DerValue.parse(int(n)).int()).toBe(n);
    }
  });

  it('strings, times, flags, OIDs and long lengths round-trip', () => {
    expect(DerValue.parse(kstring('EXAMPLE.COM')).string()).toBe('EXAMPLE.COM');
    const t = new Date(Date.UTC(2026, 10, 27, 6, 5, 4));
    expect(hexEncode(ktime(t))).toBe(hexEncode(Uint8Array.of(0x18, 15, ...utf8Encode('20261127060504Z'))));
    expect(DerValue.parse(ktime(t)).time().getTime()).toBe(t.getTime());
    expect(DerValue.parse(bits32(0x40810010)).bits()).toBe(0x40810010);
    expect(hexEncode(oid('1.2.840.113554.1.2.2'))).toBe('06092a864886f712010202');
    expect(DerValue.parse(oid('1.2.840.113554.1.2.2')).oid()).toBe('1.2.840.113554.1.2.2');
    const big = new Uint8Array(300).fill(7);
    const encoded = octets(big);
    expect(hexEncode(encoded.subarray(0, 4))).toBe('0482012c');
    expect(DerValue.parse(encoded).bytes()).toEqual(big);
  });

  it('sequences give their fields by context tag; absent OPTIONAL fields are undefined', () => {
    const v = DerValue.parse(seq(ctx(0, int(1)), ctx(2, kstring('x'))));
    expect(v.need(0, 'a').int()).toBe(1);
    expect(v.field(1)).toBeUndefined();
    expect(v.field(2)?.string()).toBe('x');
    expect(() => v.need(1, 'b')).toThrow(KerberosError);
  });

  it('every truncation of an AS-REQ is BAD_REPLY, and so is trailing garbage', () => {
    const body = encodeKdcReqBody({ options: 0, cname: { type: 1, names: ['alice'] }, realm: 'EXAMPLE.COM', sname: { type: 2, names: ['krbtgt', 'EXAMPLE.COM'] }, till: new Date(0), nonce: 42, etypes: [18, 17] });
    const req = encodeKdcReq(10, [], body);
    expect(DerValue.parse(req).tag).toBe(0x6a);
    const walk = (v: DerValue): void => {
      if (v.tag & 0x20) v.children().forEach(walk);
    };
    for (let n = 0; n < req.length; n++) {
      const err = ((): unknown => {
        try {
          walk(DerValue.parse(req.subarray(0, n)));
          return undefined;
        } catch (e) {
          return e;
        }
      })();
      expect(err, `truncated at ${n}`).toBeInstanceOf(KerberosError);
      expect((err as KerberosError).code).toBe('BAD_REPLY');
    }
    expect(() => DerValue.parse(Uint8Array.of(...req, 0))).toThrow(/after the element/);
  });
});

describe('KRB-ERROR', () => {
  it('names the error and carries the ETYPE-INFO2 salt of PREAUTH_REQUIRED', () => {
    const etypeInfo2 = seqOf([seq(ctx(0, int(18)), ctx(1, kstring('EXAMPLE.COMalice')), ctx(2, octets(hex('00001000'))))]);
    const methodData = seqOf([seq(ctx(1, int(19)), ctx(2, octets(etypeInfo2)))]);
    const err = app(
      30,
      seq(
        ctx(0, int(5)),
        ctx(1, int(30)),
        ctx(4, ktime(new Date(Date.UTC(2026, 0, 1)))),
        ctx(5, int(0)),
        ctx(6, int(25)),
        ctx(9, kstring('EXAMPLE.COM')),
        ctx(10, encodePrincipalName({ type: 2, names: ['krbtgt', 'EXAMPLE.COM'] })),
        ctx(12, octets(methodData)),
      ),
    );
    expect(isKrbError(err)).toBe(true);
    const decoded = decodeKrbError(err);
    expect(decoded.name).toBe('KDC_ERR_PREAUTH_REQUIRED');
    expect(decoded.sname.names).toEqual(['krbtgt', 'EXAMPLE.COM']);
    const info = decodeEtypeInfo2(decoded.methodData![0]!.value);
    expect(info).toEqual([{ etype: 18, salt: 'EXAMPLE.COMalice', s2kparams: hex('00001000') }]);
  });
});

describe('keytab and krb5.conf', () => {
  it('reads the newest key of each etype for one principal, skipping holes', () => {
    const entry = (names: string[], kvno: number, etype: number, key: Uint8Array): number[] => {
      const parts: number[] = [];
      const u16 = (n: number): void => void parts.push(n >> 8, n & 0xff);
      const str = (s: string): void => {
        u16(s.length);
        parts.push(...utf8Encode(s));
      };
      u16(names.length);
      str('EXAMPLE.COM');
      names.forEach(str);
      parts.push(0, 0, 0, 1, 0, 0, 0, 0, kvno);
      u16(etype);
      u16(key.length);
      parts.push(...key);
      const size = parts.length;
      return [size >>> 24, (size >> 16) & 0xff, (size >> 8) & 0xff, size & 0xff, ...parts];
    };
    const hole = [0xff, 0xff, 0xff, 0xfc, 0, 0, 0, 0];
    const file = Uint8Array.from([
      0x05, 0x02,
      ...entry(['app'], 1, 18, new Uint8Array(32).fill(1)),
      ...hole,
      ...entry(['app'], 2, 18, new Uint8Array(32).fill(2)),
      ...entry(['app'], 2, 17, new Uint8Array(16).fill(3)),
      ...entry(['other'], 5, 18, new Uint8Array(32).fill(4)),
    ]);
    const keys = keysFor(parseKeytab(file), parsePrincipal('app@EXAMPLE.COM', undefined));
    expect(keys.map((k) => [k.etype, k.value[0]])).toEqual([[18, 2], [17, 3]]);
    expect(() => parseKeytab(Uint8Array.of(0x05, 0x01))).toThrow(/keytab/);
    expect(() => parseKeytab(file.subarray(0, 20))).toThrow(KerberosError);
  });

  it('krb5.conf gives the default realm and each realm its KDCs', () => {
    const conf = parseKrb5Config(`# comment
[libdefaults]
  default_realm = CORP.EXAMPLE
  rdns = false
[realms]
  CORP.EXAMPLE = {
    kdc = kdc1.corp.example
    kdc = kdc2.corp.example:750
    admin_server = kdc1.corp.example
  }
  OTHER = {
    kdc = [::1]:88
  }
`);
    expect(conf.defaultRealm).toBe('CORP.EXAMPLE');
    expect(conf.kdcs.get('CORP.EXAMPLE')).toEqual(['kdc1.corp.example', 'kdc2.corp.example:750']);
    expect(parseKdcAddress(conf.kdcs.get('CORP.EXAMPLE')![0]!)).toEqual({ host: 'kdc1.corp.example', port: 88 });
    expect(parseKdcAddress(conf.kdcs.get('OTHER')![0]!)).toEqual({ host: '::1', port: 88 });
    expect(() => parseKdcAddress('a b')).toThrow(KerberosError);
  });

  it('principals take the fallback realm only when they have none', () => {
    expect(parsePrincipal('zookeeper/zk1@A.B', 'C')).toEqual({ realm: 'A.B', name: { type: 1, names: ['zookeeper', 'zk1'] } });
    expect(parsePrincipal('alice', 'C').realm).toBe('C');
    expect(() => parsePrincipal('alice', undefined)).toThrow(/no realm/);
  });
});

describe('tickets', () => {
  it('an expired TGT is TICKET_EXPIRED before anything is sent', async () => {
    let sent = 0;
    const env = { kdc: async (): Promise<Uint8Array> => (sent++, new Uint8Array()), now: () => new Date(Date.UTC(2026, 0, 2)) };
    const tgt = {
      client: parsePrincipal('alice@A', undefined),
      server: parsePrincipal('krbtgt/A@A', undefined),
      ticket: new Uint8Array(),
      sessionKey: { etype: 18, value: new Uint8Array(32) },
      authtime: new Date(Date.UTC(2026, 0, 1)),
      endtime: new Date(Date.UTC(2026, 0, 1, 10)),
    };
    const err = await requestServiceTicket(env, tgt, { type: 3, names: ['zookeeper', 'zk1'] }).catch((e: unknown) => e);
    expect((err as KerberosError).code).toBe('TICKET_EXPIRED');
    expect(sent).toBe(0);
  });
});
