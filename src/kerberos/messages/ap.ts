/**
 * AP-REQ with its Authenticator and AP-REP with EncAPRepPart (RFC 4120 sections 5.5.1, 5.5.2): how a client shows
 * a service its ticket, and how the service proves (mutual authentication) it could open that ticket.
 */

import { app, bits32, bit, ctx, DerValue, int, kstring, ktime, seq } from '../asn1/der.js';
import type { EncryptionKey } from '../crypto/profile.js';
import { encodeChecksum, encodeEncryptedData, encodeEncryptionKey, encodePrincipalName, MsgType, decodeEncryptedData, decodeEncryptionKey, type Checksum, type EncryptedData, type Principal } from './common.js';

/** APOptions: mutual-required asks the service for an AP-REP. */
export const ApOption = { MUTUAL_REQUIRED: bit(2) } as const;

export interface Authenticator {
  readonly client: Principal;
  readonly checksum?: Checksum | undefined;
  /** Microseconds within `ctime`'s second. */
  readonly cusec: number;
  readonly ctime: Date;
  readonly subkey?: EncryptionKey | undefined;
  readonly seqNumber?: number | undefined;
}

export function encodeAuthenticator(a: Authenticator): Uint8Array {
  return app(
    2,
    seq(
      ctx(0, int(5)),
      ctx(1, kstring(a.client.realm)),
      ctx(2, encodePrincipalName(a.client.name)),
      a.checksum === undefined ? undefined : ctx(3, encodeChecksum(a.checksum)),
      ctx(4, int(a.cusec)),
      ctx(5, ktime(a.ctime)),
      a.subkey === undefined ? undefined : ctx(6, encodeEncryptionKey(a.subkey)),
      a.seqNumber === undefined ? undefined : ctx(7, int(a.seqNumber)),
    ),
  );
}

/** AP-REQ around a ticket (as the KDC encoded it) and an encrypted authenticator. */
export function encodeApReq(options: number, ticket: Uint8Array, authenticator: EncryptedData): Uint8Array {
  return app(MsgType.AP_REQ, seq(ctx(0, int(5)), ctx(1, int(MsgType.AP_REQ)), ctx(2, bits32(options)), ctx(3, ticket), ctx(4, encodeEncryptedData(authenticator))));
}

export function decodeApRep(bytes: Uint8Array): EncryptedData {
  return decodeEncryptedData(DerValue.parse(bytes).unwrap(0x60 | MsgType.AP_REP, 'AP-REP').need(2, 'enc-part'));
}

export interface EncApRepPart {
  readonly ctime: Date;
  readonly cusec: number;
  readonly subkey?: EncryptionKey | undefined;
  readonly seqNumber?: number | undefined;
}

export function decodeEncApRepPart(bytes: Uint8Array): EncApRepPart {
  const v = DerValue.parse(bytes).unwrap(0x60 | 27, 'EncAPRepPart');
  const subkey = v.field(2);
  return {
    ctime: v.need(0, 'ctime').time(),
    cusec: v.need(1, 'cusec').int(),
    subkey: subkey === undefined ? undefined : decodeEncryptionKey(subkey),
    seqNumber: v.field(3)?.int(),
  };
}
