/**
 * The Kerberos crypto against the RFCs' own test vectors: RFC 3961 appendix A.1 (n-fold), RFC 3962 appendix B
 * (PBKDF2 and string-to-key for aes128/aes256, AES-CTS encryption with the "chicken teriyaki" key), and round trips
 * of the simplified profile's encryption, whose integrity check must refuse a wrong key or usage.
 */

import { describe, expect, it } from 'vitest';
import { ctsDecrypt, ctsEncrypt } from '../../src/kerberos/crypto/aes-cts.js';
import { nfold } from '../../src/kerberos/crypto/nfold.js';
import { AES128_CTS_HMAC_SHA1_96, AES256_CTS_HMAC_SHA1_96 } from '../../src/kerberos/crypto/profile.js';
import { pbkdf2 } from '../../src/kerberos/crypto/subtle.js';
import { KerberosError } from '../../src/kerberos/errors.js';
import { hexEncode, utf8Encode } from '../../src/protocol/index.js';

const hex = (s: string): Uint8Array => Uint8Array.from(s.match(/../g) ?? [], (b) => parseInt(b, 16));
const latin1 = (bytes: Uint8Array): string => String.fromCharCode(...bytes);

describe('n-fold (RFC 3961 A.1)', () => {
  const vectors: [string, number, string][] = [
    ['012345', 64, 'be072631276b1955'],
    ['password', 56, '78a07b6caf85fa'],
    ['Rough Consensus, and Running Code', 64, 'bb6ed30870b7f0e0'],
    ['password', 168, '59e4a8ca7c0385c3c37b3f6d2000247cb6e6bd5b3e'],
    ['MASSACHVSETTS INSTITVTE OF TECHNOLOGY', 192, 'db3b0d8f0b061e603282b308a50841229ad798fab9540c1b'],
    ['Q', 168, '518a54a215a8452a518a54a215a8452a518a54a215'],
    ['ba', 168, 'fb25d531ae8974499f52fd92ea9857c4ba24cf297e'],
    ['kerberos', 64, '6b65726265726f73'],
    ['kerberos', 128, '6b65726265726f737b9b5b2b93132b93'],
    ['kerberos', 168, '8372c236344e5f1550cd0747e15d62ca7a5a3bcea4'],
    ['kerberos', 256, '6b65726265726f737b9b5b2b93132b935c9bdcdad95c9899c4cae4dee6d6cae4'],
  ];
  it.each(vectors)('%s folded to %i bits', (input, bits, out) => {
    expect(hexEncode(nfold(utf8Encode(input), bits / 8))).toBe(out);
  });
});

describe('string-to-key (RFC 3962 B)', () => {
  const salt1234 = latin1(hex('1234567878563412'));
  const x64 = 'X'.repeat(64);
  const vectors: [number, string, string, string, string][] = [
    [1, 'password', 'ATHENA.MIT.EDUraeburn', 'cdedb5281bb2f801565a1122b25635150ad1f7a04bb9f3a333ecc0e2e1f70837', 'fe697b52bc0d3ce14432ba036a92e65bbb52280990a2fa27883998d72af30161'],
    [2, 'password', 'ATHENA.MIT.EDUraeburn', '01dbee7f4a9e243e988b62c73cda935da05378b93244ec8f48a99e61ad799d86', 'a2e16d16b36069c135d5e9d2e25f896102685618b95914b467c67622225824ff'],
    [1200, 'password', 'ATHENA.MIT.EDUraeburn', '5c08eb61fdf71e4e4ec3cf6ba1f5512ba7e52ddbc5e5142f708a31e2e62b1e13', '55a6ac740ad17b4846941051e1e8b0a7548d93b0ab30a8bc3ff16280382b8c2a'],
    [5, 'password', salt1234, 'd1daa78615f287e6a1c8b120d7062a493f98d203e6be49a6adf4fa574b6e64ee', '97a4e786be20d81a382d5ebc96d5909cabcdadc87ca48f574504159f16c36e31'],
    [1200, x64, 'pass phrase equals block size', '139c30c0966bc32ba55fdbf212530ac9c5ec59f1a452f5cc9ad940fea0598ed1', '89adee3608db8bc71f1bfbfe459486b05618b70cbae22092534e56c553ba4b34'],
    [1200, `${x64}X`, 'pass phrase exceeds block size', '9ccad6d468770cd51b10e6a68721be611a8b4d282601db3b36be9246915ec82a', 'd78c5c9cb872a8c9dad4697f0bb5b2d21496c82beb2caeda2112fceea057401b'],
    [50, '\u{1d11e}', 'EXAMPLE.COMpianist', '6b9cf26d45455a43a5b8bb276a403b39e7fe37a0c41e02c281ff3069e1e94f52', '4b6d9839f84406df1f09cc166db4b83c571848b784a3d6bdc346589a3e393f9e'],
  ];
  const params = (n: number): Uint8Array => Uint8Array.of(n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
  it.each(vectors)('%i iterations of %s', async (iterations, password, salt, pbkdf, aes256) => {
    expect(hexEncode(await pbkdf2('SHA-1', utf8Encode(password), Uint8Array.from(salt, (c) => c.charCodeAt(0)), iterations, 32))).toBe(pbkdf);
    const key = await AES256_CTS_HMAC_SHA1_96.stringToKey(password, salt, params(iterations));
    expect(hexEncode(key.value)).toBe(aes256);
    expect(key.etype).toBe(18);
  });
  it('aes128 keys from the same derivation (1200 iterations)', async () => {
    const key = await AES128_CTS_HMAC_SHA1_96.stringToKey('password', 'ATHENA.MIT.EDUraeburn', params(1200));
    expect(hexEncode(key.value)).toBe('4c01cd46d632d01e6dbe230a01ed642a');
  });
});

describe('AES-CTS (RFC 3962 B)', () => {
  const key = utf8Encode('chicken teriyaki');
  const plain = utf8Encode("I would like the General Gau's Chicken, please, and wonton soup.");
  const vectors: [number, string][] = [
    [17, 'c6353568f2bf8cb4d8a580362da7ff7f97'],
    [31, 'fc00783e0efdb2c1d445d4c8eff7ed2297687268d6ecccc0c07b25e25ecfe5'],
    [32, '39312523a78662d5be7fcbcc98ebf5a897687268d6ecccc0c07b25e25ecfe584'],
    [47, '97687268d6ecccc0c07b25e25ecfe584b3fffd940c16a18c1b5549d2f838029e39312523a78662d5be7fcbcc98ebf5'],
    [48, '97687268d6ecccc0c07b25e25ecfe5849dad8bbb96c4cdc03bc103e1a194bbd839312523a78662d5be7fcbcc98ebf5a8'],
    [64, '97687268d6ecccc0c07b25e25ecfe58439312523a78662d5be7fcbcc98ebf5a84807efe836ee89a526730dbc2f7bc8409dad8bbb96c4cdc03bc103e1a194bbd8'],
  ];
  it.each(vectors)('the first %i bytes encrypt to the RFC output and back', async (length, out) => {
    const iv = new Uint8Array(16);
    const encrypted = await ctsEncrypt(key, iv, plain.subarray(0, length));
    expect(hexEncode(encrypted)).toBe(out);
    expect(hexEncode(await ctsDecrypt(key, iv, encrypted))).toBe(hexEncode(plain.subarray(0, length)));
  });
  it('refuses less than one block', async () => {
    await expect(ctsEncrypt(key, new Uint8Array(16), new Uint8Array(15))).rejects.toThrow(RangeError);
  });
});

describe('the simplified profile', () => {
  for (const etype of [AES128_CTS_HMAC_SHA1_96, AES256_CTS_HMAC_SHA1_96]) {
    it(`${etype.name}: every length round-trips; a wrong key or usage fails the integrity check`, async () => {
      const key = await etype.stringToKey('secret', 'EXAMPLE.COMalice');
      const other = await etype.stringToKey('Secret', 'EXAMPLE.COMalice');
      for (const n of [0, 1, 15, 16, 17, 31, 32, 33, 100]) {
        const plain = Uint8Array.from({ length: n }, (_, i) => i * 7);
        const sealed = await etype.encrypt(key, 3, plain);
        expect(sealed.length).toBe(n + 16 + 12);
        expect(hexEncode(await etype.decrypt(key, 3, sealed))).toBe(hexEncode(plain));
      }
      const sealed = await etype.encrypt(key, 3, utf8Encode('hello'));
      const wrongKey = await etype.decrypt(other, 3, sealed).catch((e: unknown) => e);
      expect(wrongKey).toBeInstanceOf(KerberosError);
      expect((wrongKey as KerberosError).code).toBe('WRONG_KEY');
      await expect(etype.decrypt(key, 4, sealed)).rejects.toThrow(/integrity/);
      const sum = await etype.checksum(key, 6, utf8Encode('body'));
      expect(sum.length).toBe(12);
      expect(hexEncode(await etype.checksum(key, 7, utf8Encode('body')))).not.toBe(hexEncode(sum));
    });
  }
});
