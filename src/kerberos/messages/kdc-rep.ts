/**
 * AS-REP and TGS-REP (RFC 4120 section 5.4.2), their encrypted part (EncKDCRepPart), the Ticket they carry (kept
 * as received: the client never opens it, it only forwards it) and ETYPE-INFO2 (section 5.2.7.5), the KDC's
 * answer to "which salt and iteration count make my key from my password?".
 */

import { DerValue, Tag } from '../asn1/der.js';
import type { EncryptionKey } from '../crypto/profile.js';
import { kerberosError } from '../errors.js';
import { decodeEncryptedData, decodeEncryptionKey, decodeMethodData, decodePrincipalName, type EncryptedData, type PaData, type PrincipalName } from './common.js';

export interface KdcRep {
  readonly msgType: number;
  readonly padata: PaData[];
  readonly crealm: string;
  readonly cname: PrincipalName;
  /** The Ticket element exactly as the KDC encoded it. */
  readonly ticket: Uint8Array;
  readonly encPart: EncryptedData;
}

export function decodeKdcRep(bytes: Uint8Array, appTag: 11 | 13): KdcRep {
  const outer = DerValue.parse(bytes);
  if (outer.tag !== (0x60 | appTag)) throw kerberosError('BAD_REPLY', `expected a ${appTag === 11 ? 'AS-REP' : 'TGS-REP'}, got tag 0x${outer.tag.toString(16)}`);
  const v = outer.unwrap(0x60 | appTag, 'KDC-REP');
  const ticket = v.need(5, 'ticket').expect(0x61, 'Ticket');
  return {
    msgType: v.need(1, 'msg-type').int(),
    padata: v.field(2) === undefined ? [] : decodeMethodData(v.field(2)!),
    crealm: v.need(3, 'crealm').string(),
    cname: decodePrincipalName(v.need(4, 'cname')),
    ticket: ticket.encoded.slice(),
    encPart: decodeEncryptedData(v.need(6, 'enc-part')),
  };
}

/** The decrypted EncKDCRepPart: the session key, our nonce back, the ticket's times and server. */
export interface EncKdcRepPart {
  readonly key: EncryptionKey;
  readonly nonce: number;
  readonly flags: number;
  readonly authtime: Date;
  readonly starttime?: Date | undefined;
  readonly endtime: Date;
  readonly renewTill?: Date | undefined;
  readonly srealm: string;
  readonly sname: PrincipalName;
}

export function decodeEncKdcRepPart(bytes: Uint8Array): EncKdcRepPart {
  const outer = DerValue.parse(bytes);
  // EncASRepPart is [APPLICATION 25], EncTGSRepPart [APPLICATION 26]; MIT sends 25 in both, as RFC 4120 allows.
  if (outer.tag !== 0x79 && outer.tag !== 0x7a) throw kerberosError('BAD_REPLY', `unexpected tag 0x${outer.tag.toString(16)} for EncKDCRepPart`);
  const v = outer.unwrap(outer.tag, 'EncKDCRepPart');
  return {
    key: decodeEncryptionKey(v.need(0, 'key')),
    nonce: v.need(2, 'nonce').int(),
    flags: v.need(4, 'flags').bits(),
    authtime: v.need(5, 'authtime').time(),
    starttime: v.field(6)?.time(),
    endtime: v.need(7, 'endtime').time(),
    renewTill: v.field(8)?.time(),
    srealm: v.need(9, 'srealm').string(),
    sname: decodePrincipalName(v.need(10, 'sname')),
  };
}

export interface EtypeInfo2Entry {
  readonly etype: number;
  readonly salt?: string | undefined;
  readonly s2kparams?: Uint8Array | undefined;
}

export function decodeEtypeInfo2(bytes: Uint8Array): EtypeInfo2Entry[] {
  return DerValue.parse(bytes)
    .expect(Tag.SEQUENCE, 'ETYPE-INFO2')
    .children()
    .map((e) => ({ etype: e.need(0, 'etype').int(), salt: e.field(1)?.string(), s2kparams: e.field(2)?.bytes() }));
}
