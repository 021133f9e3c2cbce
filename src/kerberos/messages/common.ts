/**
 * Kerberos types shared by the messages (RFC 4120 section 5.2): PrincipalName, EncryptedData, EncryptionKey,
 * Checksum, PA-DATA; and the numbers the messages carry (message types, name types, pre-authentication types,
 * the key usages of RFC 4120 section 7.5.1 and RFC 4121 section 2).
 */

import type { EncryptionKey } from '../crypto/profile.js';
import { ctx, type DerValue, int, kstring, octets, seq, tlv, Tag } from '../asn1/der.js';
import { concatBytes } from '../../protocol/index.js';

export const MsgType = { AS_REQ: 10, AS_REP: 11, TGS_REQ: 12, TGS_REP: 13, AP_REQ: 14, AP_REP: 15, KRB_ERROR: 30 } as const;

/** NT-PRINCIPAL for users, NT-SRV-INST for krbtgt, NT-SRV-HST for host-based services such as zookeeper/host. */
export const NameType = { PRINCIPAL: 1, SRV_INST: 2, SRV_HST: 3 } as const;

export const PaType = { TGS_REQ: 1, ENC_TIMESTAMP: 2, ETYPE_INFO2: 19 } as const;

export const KeyUsage = {
  PA_ENC_TIMESTAMP: 1,
  AS_REP_ENC_PART: 3,
  TGS_REQ_AUTH_CKSUM: 6,
  TGS_REQ_AUTH: 7,
  TGS_REP_ENC_PART_SESSION: 8,
  TGS_REP_ENC_PART_SUBKEY: 9,
  AP_REQ_AUTH: 11,
  AP_REP_ENC_PART: 12,
  // RFC 4121 section 2: GSS-API per-message tokens.
  ACCEPTOR_SEAL: 22,
  ACCEPTOR_SIGN: 23,
  INITIATOR_SEAL: 24,
  INITIATOR_SIGN: 25,
} as const;

/** A principal: name type and components, e.g. { type: 1, names: ['alice'] } or { type: 3, names: ['zookeeper', 'zk1'] }. */
export interface PrincipalName {
  readonly type: number;
  readonly names: readonly string[];
}

/** A realm and principal, as written `names/joined@REALM`. */
export interface Principal {
  readonly realm: string;
  readonly name: PrincipalName;
}

export function principalText(p: Principal): string {
  return `${p.name.names.join('/')}@${p.realm}`;
}

export function encodePrincipalName(p: PrincipalName): Uint8Array {
  return seq(ctx(0, int(p.type)), ctx(1, seq(...p.names.map(kstring))));
}

export function decodePrincipalName(v: DerValue): PrincipalName {
  return { type: v.need(0, 'name-type').int(), names: v.need(1, 'name-string').expect(Tag.SEQUENCE, 'name-string').children().map((c) => c.string()) };
}

/** EncryptedData: the etype, the key version when the key is a long-term one, the ciphertext. */
export interface EncryptedData {
  readonly etype: number;
  readonly kvno?: number | undefined;
  readonly cipher: Uint8Array;
}

export function encodeEncryptedData(e: EncryptedData): Uint8Array {
  return seq(ctx(0, int(e.etype)), e.kvno === undefined ? undefined : ctx(1, int(e.kvno)), ctx(2, octets(e.cipher)));
}

export function decodeEncryptedData(v: DerValue): EncryptedData {
  return { etype: v.need(0, 'etype').int(), kvno: v.field(1)?.int(), cipher: v.need(2, 'cipher').bytes() };
}

export function encodeEncryptionKey(k: EncryptionKey): Uint8Array {
  return seq(ctx(0, int(k.etype)), ctx(1, octets(k.value)));
}

export function decodeEncryptionKey(v: DerValue): EncryptionKey {
  return { etype: v.need(0, 'keytype').int(), value: v.need(1, 'keyvalue').bytes().slice() };
}

export interface Checksum {
  readonly type: number;
  readonly value: Uint8Array;
}

export function encodeChecksum(c: Checksum): Uint8Array {
  return seq(ctx(0, int(c.type)), ctx(1, octets(c.value)));
}

export interface PaData {
  readonly type: number;
  readonly value: Uint8Array;
}

export function encodePaData(p: PaData): Uint8Array {
  return seq(ctx(1, int(p.type)), ctx(2, octets(p.value)));
}

/** METHOD-DATA, the SEQUENCE OF PA-DATA in a KRB-ERROR's e-data or a KDC-REP's padata. */
export function decodeMethodData(v: DerValue): PaData[] {
  return v.expect(Tag.SEQUENCE, 'METHOD-DATA').children().map((p) => ({ type: p.need(1, 'padata-type').int(), value: p.need(2, 'padata-value').bytes() }));
}

/** A SEQUENCE OF already-encoded elements. */
export function seqOf(items: readonly Uint8Array[]): Uint8Array {
  return tlv(Tag.SEQUENCE, concatBytes(items));
}
