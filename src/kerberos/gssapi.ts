/**
 * The Kerberos V5 GSS-API mechanism (RFC 4121), initiator side, as much as SASL GSSAPI needs: the initial context
 * token (the mechanism OID around an AP-REQ whose authenticator carries the GSS checksum, a subkey and a sequence
 * number, asking for mutual authentication), the check of the acceptor's AP-REP, and Wrap tokens (section 4.2.6.2)
 * in both directions, sealed or integrity-only, rotated or not.
 */

import { concatBytes } from '../protocol/index.js';
import { DerValue, oid, tlv } from './asn1/der.js';
import { etypeById, sameBytes, type EncryptionKey } from './crypto/profile.js';
import { randomBytes } from './crypto/subtle.js';
import { kerberosError } from './errors.js';
import type { Ticket } from './login.js';
import { ApOption, decodeApRep, decodeEncApRepPart, encodeApReq, encodeAuthenticator } from './messages/ap.js';
import { KeyUsage } from './messages/common.js';
import { decodeKrbError, errorFromKdc } from './messages/krb-error.js';

/** 1.2.840.113554.1.2.2, the krb5 mechanism. */
export const KRB5_MECH_OID = '1.2.840.113554.1.2.2';

/** RFC 4121 4.1.1.1 context flags: mutual, replay and sequence detection, confidentiality and integrity available. */
const GSS_FLAGS = 2 | 4 | 8 | 16 | 32;
const CHECKSUM_GSS = 0x8003;

const TOK_AP_REQ = Uint8Array.of(0x01, 0x00);
const TOK_AP_REP = Uint8Array.of(0x02, 0x00);
const TOK_ERROR = Uint8Array.of(0x03, 0x00);

/** An initiator's context, from the first token to per-message protection. */
export class InitiatorContext {
  readonly #ticket: Ticket;
  readonly #subkey: EncryptionKey;
  readonly #now: () => Date;
  #ctime: Date | undefined;
  #cusec = 0;
  #sendSeq: bigint;
  #key: EncryptionKey;
  #acceptorSubkey = false;
  #established = false;

  constructor(ticket: Ticket, now: () => Date) {
    this.#ticket = ticket;
    this.#now = now;
    const etype = etypeById(ticket.sessionKey.etype);
    if (etype === undefined) throw kerberosError('BAD_REPLY', `the service ticket's session key is of etype ${ticket.sessionKey.etype}, which zkwire does not speak`);
    this.#subkey = { etype: etype.id, value: randomBytes(etype.keyBytes) };
    this.#key = this.#subkey;
    this.#sendSeq = BigInt(new DataView(randomBytes(4).buffer).getUint32(0) & 0x3fffffff);
  }

  get established(): boolean {
    return this.#established;
  }

  /** The initial context token (RFC 2743 3.1 framing around TOK_ID 01 00 and the AP-REQ). */
  async initialToken(): Promise<Uint8Array> {
    const etype = etypeById(this.#ticket.sessionKey.etype)!;
    const now = this.#now();
    this.#ctime = new Date(Math.floor(now.getTime() / 1000) * 1000);
    this.#cusec = (now.getTime() % 1000) * 1000;
    // The GSS checksum (RFC 4121 4.1.1): Lgth 16, no channel bindings (16 zero bytes), the flags; little-endian.
    const gss = new Uint8Array(24);
    const view = new DataView(gss.buffer);
    view.setUint32(0, 16, true);
    view.setUint32(20, GSS_FLAGS, true);
    const authenticator = encodeAuthenticator({
      client: this.#ticket.client,
      checksum: { type: CHECKSUM_GSS, value: gss },
      cusec: this.#cusec,
      ctime: this.#ctime,
      subkey: this.#subkey,
      seqNumber: Number(this.#sendSeq),
    });
    const sealed = await etype.encrypt(this.#ticket.sessionKey, KeyUsage.AP_REQ_AUTH, authenticator);
    const apReq = encodeApReq(ApOption.MUTUAL_REQUIRED, this.#ticket.ticket, { etype: etype.id, cipher: sealed });
    return tlv(0x60, concatBytes([oid(KRB5_MECH_OID), TOK_AP_REQ, apReq]));
  }

  /** Checks the acceptor's AP-REP (mutual authentication); takes its subkey when it sends one. */
  async acceptReply(token: Uint8Array): Promise<void> {
    const { tokId, body } = unframe(token);
    if (sameBytes(tokId, TOK_ERROR)) throw errorFromKdc(decodeKrbError(body), 'the ZooKeeper server refused our ticket');
    if (!sameBytes(tokId, TOK_AP_REP)) throw kerberosError('BAD_MUTUAL_AUTH', `the server answered with GSS token ${tokId[0]} ${tokId[1]}, not an AP-REP`);
    const enc = decodeApRep(body);
    const etype = etypeById(enc.etype) ?? etypeById(this.#ticket.sessionKey.etype)!;
    let part;
    try {
      part = decodeEncApRepPart(await etype.decrypt(this.#ticket.sessionKey, KeyUsage.AP_REP_ENC_PART, enc.cipher));
    } catch (e) {
      throw kerberosError('BAD_MUTUAL_AUTH', 'the server could not prove it holds the service key (its AP-REP does not decrypt)', e);
    }
    if (part.ctime.getTime() !== this.#ctime?.getTime() || part.cusec !== this.#cusec) {
      throw kerberosError('BAD_MUTUAL_AUTH', 'the server answered another authenticator (its AP-REP time differs from ours)');
    }
    if (part.subkey !== undefined) {
      this.#key = part.subkey;
      this.#acceptorSubkey = true;
    }
    this.#established = true;
  }

  /** Opens a Wrap token from the acceptor: checks its checksum or decrypts it. */
  async unwrap(token: Uint8Array): Promise<Uint8Array> {
    if (token.length < 16 || token[0] !== 0x05 || token[1] !== 0x04 || token[3] !== 0xff) throw kerberosError('BAD_REPLY', 'not an RFC 4121 Wrap token');
    const flags = token[2]!;
    if ((flags & 0x01) === 0) throw kerberosError('BAD_REPLY', 'a Wrap token not sent by the acceptor (reflected?)');
    const view = new DataView(token.buffer, token.byteOffset, 16);
    const ec = view.getUint16(4);
    const rrc = view.getUint16(6);
    const data = rotateLeft(token.subarray(16), rrc);
    // The acceptor says which key it used: its own subkey (flag 0x04) or ours.
    const key = (flags & 0x04) !== 0 ? this.#key : this.#subkey;
    const etype = etypeById(key.etype)!;
    const header = token.slice(0, 16);
    if ((flags & 0x02) !== 0) {
      const plain = await etype.decrypt(key, KeyUsage.ACCEPTOR_SEAL, data);
      if (plain.length < ec + 16) throw kerberosError('BAD_REPLY', 'a sealed Wrap token too short for its filler and header');
      const copy = plain.subarray(plain.length - 16);
      header.set([0, 0], 6);
      if (!sameBytes(copy, header)) throw kerberosError('BAD_REPLY', 'a sealed Wrap token whose inner header differs from its outer one');
      return plain.slice(0, plain.length - ec - 16);
    }
    if (data.length < ec) throw kerberosError('BAD_REPLY', 'a Wrap token shorter than its checksum');
    const message = data.subarray(0, data.length - ec);
    header.set([0, 0, 0, 0], 4);
    // Wrap tokens use the SEAL usages with or without confidentiality (RFC 4121 2); SIGN is for MIC tokens.
    const expected = await etype.checksum(key, KeyUsage.ACCEPTOR_SEAL, concatBytes([message, header]));
    if (!sameBytes(expected, data.subarray(data.length - ec))) throw kerberosError('BAD_REPLY', "the server's Wrap token fails its integrity check");
    return message.slice();
  }

  /** An integrity-protected (not sealed) Wrap token of `message`, which is what SASL's last step needs. */
  async wrap(message: Uint8Array): Promise<Uint8Array> {
    const etype = etypeById(this.#key.etype)!;
    const header = new Uint8Array(16);
    const view = new DataView(header.buffer);
    header.set([0x05, 0x04, this.#acceptorSubkey ? 0x04 : 0x00, 0xff]);
    view.setBigUint64(8, this.#sendSeq++);
    const checksum = await etype.checksum(this.#key, KeyUsage.INITIATOR_SEAL, concatBytes([message, header]));
    view.setUint16(4, checksum.length);
    return concatBytes([header, message, checksum]);
  }
}

/** Takes the RFC 2743 framing off a context token: [APPLICATION 0] { OID, TOK_ID, body }. */
function unframe(token: Uint8Array): { tokId: Uint8Array; body: Uint8Array } {
  const outer = DerValue.parse(token).expect(0x60, 'GSS token');
  const inner = outer.content;
  const mechLength = 2 + (inner[1] ?? 0);
  const mech = DerValue.parse(inner.subarray(0, mechLength)).oid();
  if (mech !== KRB5_MECH_OID) throw kerberosError('BAD_REPLY', `a GSS token of mechanism ${mech}, not krb5`);
  return { tokId: inner.subarray(mechLength, mechLength + 2), body: inner.subarray(mechLength + 2) };
}

/** Undoes the acceptor's right rotation by `count` bytes (RFC 4121 4.2.5). */
function rotateLeft(data: Uint8Array, count: number): Uint8Array {
  if (data.length === 0) return data;
  const n = count % data.length;
  return n === 0 ? data : concatBytes([data.subarray(n), data.subarray(0, n)]);
}
