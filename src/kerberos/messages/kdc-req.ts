/**
 * AS-REQ and TGS-REQ (RFC 4120 section 5.4.1) and the PA-ENC-TIMESTAMP pre-authentication (section 5.2.7.2).
 * The request body is encoded once and kept: a TGS-REQ's authenticator checksums exactly those bytes.
 */

import { app, bits32, bit, ctx, int, kstring, ktime, seq } from '../asn1/der.js';
import { encodeEncryptedData, encodePaData, encodePrincipalName, MsgType, type EncryptedData, type PaData, type PrincipalName, seqOf } from './common.js';

/** KDCOptions bits (RFC 4120 5.4.1): we ask for forwardable, renewable-ok and canonicalize as kinit does by default. */
export const KdcOption = { FORWARDABLE: bit(1), RENEWABLE: bit(8), CANONICALIZE: bit(15), RENEWABLE_OK: bit(27) } as const;

export interface KdcReqBody {
  readonly options: number;
  /** The client (AS-REQ only). */
  readonly cname?: PrincipalName | undefined;
  /** The realm of the server (and of the client in an AS-REQ). */
  readonly realm: string;
  readonly sname: PrincipalName;
  readonly till: Date;
  readonly nonce: number;
  /** Encryption types we accept, preferred first. */
  readonly etypes: readonly number[];
}

export function encodeKdcReqBody(b: KdcReqBody): Uint8Array {
  return seq(
    ctx(0, bits32(b.options)),
    b.cname === undefined ? undefined : ctx(1, encodePrincipalName(b.cname)),
    ctx(2, kstring(b.realm)),
    ctx(3, encodePrincipalName(b.sname)),
    ctx(5, ktime(b.till)),
    ctx(7, int(b.nonce)),
    ctx(8, seqOf(b.etypes.map(int))),
  );
}

/** AS-REQ ([APPLICATION 10]) or TGS-REQ ([APPLICATION 12]) around an encoded body. */
export function encodeKdcReq(type: typeof MsgType.AS_REQ | typeof MsgType.TGS_REQ, padata: readonly PaData[], body: Uint8Array): Uint8Array {
  return app(
    type,
    seq(ctx(1, int(5)), ctx(2, int(type)), padata.length === 0 ? undefined : ctx(3, seqOf(padata.map(encodePaData))), ctx(4, body)),
  );
}

/** PA-ENC-TS-ENC: the client's time, which it then encrypts with its long-term key (usage 1). */
export function encodePaEncTsEnc(now: Date): Uint8Array {
  return seq(ctx(0, ktime(now)), ctx(1, int((now.getTime() % 1000) * 1000)));
}

/** The PA-DATA holding an encrypted timestamp. */
export function paEncTimestamp(encrypted: EncryptedData): PaData {
  return { type: 2, value: encodeEncryptedData(encrypted) };
}

