/**
 * Getting tickets (RFC 4120 section 3.1 and 3.3): the AS exchange for a ticket-granting ticket, with the
 * pre-authentication MIT and Active Directory require (first try without, read ETYPE-INFO2 from the
 * KDC_ERR_PREAUTH_REQUIRED answer for the salt and iteration count, send the timestamp encrypted with the key those
 * give), then TGS exchanges for service tickets. Every KDC refusal becomes a KerberosError named as the KDC named it.
 */

import { etypeById, SUPPORTED_ETYPES, type EncryptionKey, type Etype } from './crypto/profile.js';
import { randomBytes } from './crypto/subtle.js';
import { KerberosError, kerberosError } from './errors.js';
import type { KdcCall } from './kdc-client.js';
import { encodeApReq, encodeAuthenticator } from './messages/ap.js';
import { KeyUsage, MsgType, NameType, PaType, principalText, type PaData, type Principal, type PrincipalName } from './messages/common.js';
import { decodeEncKdcRepPart, decodeEtypeInfo2, decodeKdcRep, type EncKdcRepPart, type EtypeInfo2Entry, type KdcRep } from './messages/kdc-rep.js';
import { encodeKdcReq, encodeKdcReqBody, encodePaEncTsEnc, KdcOption, paEncTimestamp } from './messages/kdc-req.js';
import { decodeKrbError, errorFromKdc, isKrbError } from './messages/krb-error.js';

/** How the client proves who it is: a password, or long-term keys (from a keytab). */
export interface ClientSecret {
  readonly password?: string | undefined;
  readonly keys?: readonly EncryptionKey[] | undefined;
}

/** A ticket with what we need to use it. */
export interface Ticket {
  readonly client: Principal;
  readonly server: Principal;
  /** The Ticket element as the KDC encoded it. */
  readonly ticket: Uint8Array;
  readonly sessionKey: EncryptionKey;
  readonly authtime: Date;
  readonly endtime: Date;
}

/** What the exchanges need besides the KDC: the clock (tests shift it to provoke KRB_AP_ERR_SKEW). */
export interface LoginEnvironment {
  readonly kdc: KdcCall;
  readonly now: () => Date;
}

/** The ticket lifetime we ask for; the KDC caps it by its own policy (MIT: max_life, 24 h by default). */
const REQUESTED_LIFETIME_MS = 24 * 3600_000;

function nonce(): number {
  return new DataView(randomBytes(4).buffer).getUint32(0) & 0x7fffffff;
}

/** RFC 4120's default salt: the realm, then the name's components, all concatenated. */
export function defaultSalt(p: Principal): string {
  return p.realm + p.name.names.join('');
}

/** The AS exchange: a TGT for `client` (krbtgt/REALM@REALM). */
export async function requestTgt(env: LoginEnvironment, client: Principal, secret: ClientSecret): Promise<Ticket> {
  const keyEtypes = secret.keys?.map((k) => k.etype) ?? [];
  const etypes = secret.password !== undefined ? SUPPORTED_ETYPES.map((e) => e.id) : SUPPORTED_ETYPES.map((e) => e.id).filter((id) => keyEtypes.includes(id));
  if (etypes.length === 0) throw kerberosError('NO_KEY', `the keytab has no key for ${principalText(client)} of an encryption type zkwire speaks (aes256/aes128-cts-hmac-sha1-96)`);
  const tgs: Principal = { realm: client.realm, name: { type: NameType.SRV_INST, names: ['krbtgt', client.realm] } };
  const ask = async (padata: readonly PaData[]): Promise<{ reply: Uint8Array; nonce: number }> => {
    const n = nonce();
    const body = encodeKdcReqBody({
      options: KdcOption.FORWARDABLE | KdcOption.CANONICALIZE | KdcOption.RENEWABLE_OK,
      cname: client.name,
      realm: client.realm,
      sname: tgs.name,
      till: new Date(env.now().getTime() + REQUESTED_LIFETIME_MS),
      nonce: n,
      etypes,
    });
    return { reply: await env.kdc(encodeKdcReq(MsgType.AS_REQ, padata, body)), nonce: n };
  };
  const context = `logging in as ${principalText(client)}`;
  let sent = await ask([]);
  let key: EncryptionKey | undefined;
  if (isKrbError(sent.reply)) {
    const err = decodeKrbError(sent.reply);
    if (err.name !== 'KDC_ERR_PREAUTH_REQUIRED') throw errorFromKdc(err, context);
    const info = (err.methodData ?? []).filter((p) => p.type === PaType.ETYPE_INFO2).flatMap((p) => decodeEtypeInfo2(p.value));
    key = await clientKey(client, secret, info, etypes);
    const etype = etypeById(key.etype)!;
    const now = env.now();
    const ts = await etype.encrypt(key, KeyUsage.PA_ENC_TIMESTAMP, encodePaEncTsEnc(now));
    sent = await ask([paEncTimestamp({ etype: key.etype, cipher: ts })]);
    if (isKrbError(sent.reply)) throw errorFromKdc(decodeKrbError(sent.reply), context);
  }
  const rep = decodeKdcRep(sent.reply, 11);
  const repEtype = rep.encPart.etype;
  if (key === undefined || key.etype !== repEtype) {
    // No pre-authentication was asked for: the salt, if not the default one, comes in the reply's padata.
    const info = rep.padata.filter((p) => p.type === PaType.ETYPE_INFO2).flatMap((p) => decodeEtypeInfo2(p.value));
    key = await clientKey(client, secret, info.length === 0 ? [{ etype: repEtype }] : info, [repEtype]);
  }
  const etype = etypeById(repEtype) ?? unsupported(repEtype);
  let plain: Uint8Array;
  try {
    plain = await etype.decrypt(key, KeyUsage.AS_REP_ENC_PART, rep.encPart.cipher);
  } catch (e) {
    if (e instanceof KerberosError && e.code === 'WRONG_KEY') throw new KerberosError('KDC_ERR_PREAUTH_FAILED', `${context}: wrong password or key (the KDC's reply does not decrypt)`, { cause: e });
    throw e;
  }
  const part = decodeEncKdcRepPart(plain);
  if (part.nonce !== sent.nonce) throw kerberosError('BAD_REPLY', `${context}: the AS-REP answers another request (nonce mismatch)`);
  return ticketFrom(rep, part);
}

/** The ticket a KDC-REP gives, with what its decrypted part says of it. */
function ticketFrom(rep: KdcRep, part: EncKdcRepPart): Ticket {
  return {
    client: { realm: rep.crealm, name: rep.cname },
    server: { realm: part.srealm, name: part.sname },
    ticket: rep.ticket,
    sessionKey: part.key,
    authtime: part.authtime,
    endtime: part.endtime,
  };
}

async function clientKey(client: Principal, secret: ClientSecret, info: readonly EtypeInfo2Entry[], allowed: readonly number[]): Promise<EncryptionKey> {
  // The KDC lists the etypes it holds keys for in our order of preference; take the first we can make.
  const candidates: readonly EtypeInfo2Entry[] = info.length === 0 ? allowed.map((etype) => ({ etype })) : info;
  for (const entry of candidates) {
    const etype: Etype | undefined = etypeById(entry.etype);
    if (etype === undefined || !allowed.includes(entry.etype)) continue;
    if (secret.password !== undefined) return etype.stringToKey(secret.password, entry.salt ?? defaultSalt(client), entry.s2kparams);
    const key = secret.keys?.find((k) => k.etype === entry.etype);
    if (key !== undefined) return key;
  }
  throw kerberosError('NO_KEY', `no key for ${principalText(client)} in an encryption type the KDC offers (${candidates.map((c) => c.etype).join(', ')})`);
}

function unsupported(etype: number): never {
  throw kerberosError('BAD_REPLY', `the KDC answered in encryption type ${etype}, which zkwire does not speak`);
}

/** The TGS exchange: a ticket for `service` (in the TGT's realm), shown with the TGT. */
export async function requestServiceTicket(env: LoginEnvironment, tgt: Ticket, service: PrincipalName): Promise<Ticket> {
  const realm = tgt.client.realm;
  const context = `getting a ticket for ${service.names.join('/')}@${realm}`;
  if (tgt.endtime.getTime() <= env.now().getTime()) throw kerberosError('TICKET_EXPIRED', `${context}: the TGT expired at ${tgt.endtime.toISOString()}`);
  const etype = etypeById(tgt.sessionKey.etype) ?? unsupported(tgt.sessionKey.etype);
  const n = nonce();
  const body = encodeKdcReqBody({
    options: KdcOption.FORWARDABLE | KdcOption.CANONICALIZE,
    realm,
    sname: service,
    till: new Date(env.now().getTime() + REQUESTED_LIFETIME_MS),
    nonce: n,
    etypes: SUPPORTED_ETYPES.map((e) => e.id),
  });
  const now = env.now();
  const checksum = await etype.checksum(tgt.sessionKey, KeyUsage.TGS_REQ_AUTH_CKSUM, body);
  const authenticator = encodeAuthenticator({
    client: tgt.client,
    checksum: { type: etype.checksumType, value: checksum },
    cusec: (now.getTime() % 1000) * 1000,
    ctime: now,
  });
  const apReq = encodeApReq(0, tgt.ticket, { etype: etype.id, cipher: await etype.encrypt(tgt.sessionKey, KeyUsage.TGS_REQ_AUTH, authenticator) });
  const reply = await env.kdc(encodeKdcReq(MsgType.TGS_REQ, [{ type: PaType.TGS_REQ, value: apReq }], body));
  if (isKrbError(reply)) throw errorFromKdc(decodeKrbError(reply), context);
  const rep = decodeKdcRep(reply, 13);
  const part = decodeEncKdcRepPart(await etype.decrypt(tgt.sessionKey, KeyUsage.TGS_REP_ENC_PART_SESSION, rep.encPart.cipher));
  if (part.nonce !== n) throw kerberosError('BAD_REPLY', `${context}: the TGS-REP answers another request (nonce mismatch)`);
  return ticketFrom(rep, part);
}

