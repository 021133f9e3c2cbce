/**
 * SASL GSSAPI (RFC 4752) over the krb5 mechanism, as ZooKeeper servers with `authProvider.sasl` and a JAAS
 * Krb5LoginModule speak it: our AP-REQ, their AP-REP (mutual authentication), an empty token, their Wrap token
 * offering security layers, and our Wrap token choosing none (ZooKeeper uses SASL for authentication only) with the
 * principal as authorization id, as ZooKeeper's Java client sends it. The mechanism keeps the TGT and the service
 * tickets between connections and logs in again (AS exchange) once the TGT nears its end, so a session that renews
 * or reconnects after hours gets fresh tickets.
 */

import { clientError } from '../errors.js';
import { utf8Encode } from '../protocol/index.js';
import { saslMechanism, type SaslContext, type SaslExchange, type SaslMechanism } from '../session/sasl-login.js';
import { InitiatorContext } from './gssapi.js';
import { kdcCaller, parseKdcAddress } from './kdc-client.js';
import { keysFor, parseKeytab } from './keytab.js';
import type { Krb5Config } from './krb5-conf.js';
import { requestServiceTicket, requestTgt, type LoginEnvironment, type Ticket } from './login.js';
import { NameType, type Principal } from './messages/common.js';
import { kerberosError } from './errors.js';

/** Options of `saslGssapi`. */
export interface GssapiOptions {
  /** Who logs in: `name@REALM`, or `name` with the realm from `realm` or krb5.conf's default_realm. */
  readonly principal: string;
  /** The principal's password. Give this or `keytab`. */
  readonly password?: string;
  /** A keytab holding the principal's keys: its bytes, or (Node entry) its path. */
  readonly keytab?: string | Uint8Array;
  /** The KDC, `host` or `host:port` (88 by default); several separated by commas. Default: krb5.conf's for the realm. */
  readonly kdc?: string;
  /** The realm, when `principal` has none. */
  readonly realm?: string;
  /** The first part of the servers' principal: `zookeeper` unless the servers run as another (Java: zookeeper.sasl.client.username). */
  readonly serviceName?: string;
  /**
   * The host part of the servers' principal. Default: each server's host as the connect string writes it (as ZooKeeper's
   * Java client with canonicalization off); set it when the servers' principal names another host, e.g. `localhost`.
   */
  readonly serviceHost?: string;
  /** krb5.conf: its path (Node entry; default KRB5_CONFIG, else /etc/krb5.conf) or its text (portable entry). */
  readonly krb5Config?: string;
  /** The most each KDC request may take, in ms (default 10000). */
  readonly kdcTimeoutMs?: number;
}

/** What differs between the Node and the portable entries (and what tests inject). */
export interface GssapiEnvironment {
  /** The keytab's bytes from the `keytab` option (the Node entry reads a path). */
  keytabBytes(keytab: string | Uint8Array): Uint8Array;
  /** The krb5.conf from the `krb5Config` option, or the default one; undefined when there is none. */
  krb5Config(option: string | undefined): Krb5Config | undefined;
  /** The clock: tests move it to provoke KRB_AP_ERR_SKEW. */
  readonly now?: () => Date;
}

const DEFAULT_KDC_TIMEOUT_MS = 10_000;
/** Get a new ticket when less than this share of its life is left (but at least a minute, at most five). */
const RENEW_SHARE = 0.2;

/** Builds the mechanism; BAD_ARGUMENT for options that cannot work. */
export function createSaslGssapi(options: GssapiOptions, env: GssapiEnvironment): SaslMechanism {
  const o = (options ?? {}) as Partial<GssapiOptions>;
  const badArgument = (detail: string): Error => clientError('BAD_ARGUMENT', `saslGssapi: ${detail}`, { op: 'connect' });
  if (typeof o.principal !== 'string' || o.principal === '' || o.principal.startsWith('@')) throw badArgument('principal must be "name@REALM" or "name"');
  if ((o.password === undefined) === (o.keytab === undefined)) throw badArgument('give exactly one of password and keytab');
  if (o.password !== undefined && typeof o.password !== 'string') throw badArgument('password must be a string');
  if (o.keytab !== undefined && typeof o.keytab !== 'string' && !(o.keytab instanceof Uint8Array)) throw badArgument('keytab must be a path or bytes');
  if (o.kdcTimeoutMs !== undefined && !(Number.isFinite(o.kdcTimeoutMs) && o.kdcTimeoutMs > 0)) throw badArgument('kdcTimeoutMs must be a positive number');
  if (o.serviceName !== undefined && (typeof o.serviceName !== 'string' || o.serviceName === '')) throw badArgument('serviceName must be a non-empty string');
  const own = { ...o } as GssapiOptions;
  const now = env.now ?? (() => new Date());
  const tickets = new TicketStore(own, env, now);
  return saslMechanism({ name: 'GSSAPI', user: own.principal, exchange: (context) => new GssapiExchange(tickets, context, now) });
}

/** Parses "a/b@REALM" (or "a/b" with the fallback realm). */
export function parsePrincipal(text: string, fallbackRealm: string | undefined): Principal {
  const at = text.lastIndexOf('@');
  const realm = at >= 0 ? text.slice(at + 1) : fallbackRealm;
  if (realm === undefined || realm === '') throw kerberosError('BAD_CONFIG', `"${text}" has no realm, and neither the realm option nor krb5.conf's default_realm gives one`);
  const names = (at >= 0 ? text.slice(0, at) : text).split('/');
  return { realm, name: { type: 1, names } };
}

/** Who logs in and how the KDC is reached, worked out on the first login. */
interface Setup {
  readonly client: Principal;
  readonly login: LoginEnvironment;
}

/** The TGT and service tickets of one mechanism, shared by its connections, renewed as they near their end. */
class TicketStore {
  readonly #options: GssapiOptions;
  readonly #env: GssapiEnvironment;
  readonly #now: () => Date;
  #setup: Setup | undefined;
  #tgt: Promise<Ticket> | undefined;
  readonly #services = new Map<string, Promise<Ticket>>();

  constructor(options: GssapiOptions, env: GssapiEnvironment, now: () => Date) {
    this.#options = options;
    this.#env = env;
    this.#now = now;
  }

  /** A valid ticket for `serviceName/host`, from the store or the KDC. */
  async serviceTicket(context: SaslContext): Promise<Ticket> {
    const host = this.#options.serviceHost ?? context.host;
    const service = { type: NameType.SRV_HST, names: [this.#options.serviceName ?? 'zookeeper', host] };
    const key = service.names.join('/');
    const cached = this.#services.get(key);
    if (cached !== undefined) {
      const t = await cached.catch(() => undefined);
      if (t !== undefined && this.#fresh(t)) return t;
      if (this.#services.get(key) === cached) this.#services.delete(key);
    }
    const setup = this.#prepare(context);
    const pending = this.#tgtFor(setup).then((tgt) => requestServiceTicket(setup.login, tgt, service));
    this.#services.set(key, pending);
    pending.catch(() => this.#services.get(key) === pending && this.#services.delete(key));
    return pending;
  }

  async #tgtFor(setup: Setup): Promise<Ticket> {
    const cached = this.#tgt;
    if (cached !== undefined) {
      const t = await cached.catch(() => undefined);
      if (t !== undefined && this.#fresh(t)) return t;
      if (this.#tgt === cached) this.#tgt = undefined;
    }
    const secret = this.#options.password !== undefined ? { password: this.#options.password } : { keys: this.#keys(setup.client) };
    const pending = requestTgt(setup.login, setup.client, secret);
    this.#tgt = pending;
    pending.catch(() => this.#tgt === pending && (this.#tgt = undefined));
    return pending;
  }

  #keys(client: Principal): ReturnType<typeof keysFor> {
    const keys = keysFor(parseKeytab(this.#env.keytabBytes(this.#options.keytab!)), client);
    if (keys.length === 0) throw kerberosError('NO_KEY', `the keytab holds no key for ${client.name.names.join('/')}@${client.realm}`);
    return keys;
  }

  #fresh(t: Ticket): boolean {
    const life = t.endtime.getTime() - t.authtime.getTime();
    const margin = Math.min(5 * 60_000, Math.max(60_000, life * RENEW_SHARE));
    return this.#now().getTime() < t.endtime.getTime() - Math.min(margin, life / 2);
  }

  #prepare(context: SaslContext): Setup {
    if (this.#setup !== undefined) return this.#setup;
    const o = this.#options;
    const needConfig = o.kdc === undefined || (o.realm === undefined && !o.principal.includes('@'));
    const conf = needConfig ? this.#env.krb5Config(o.krb5Config) : undefined;
    const client = parsePrincipal(o.principal, o.realm ?? conf?.defaultRealm);
    const kdcText = o.kdc !== undefined ? o.kdc.split(',') : conf?.kdcs.get(client.realm);
    if (kdcText === undefined || kdcText.length === 0) {
      throw kerberosError('BAD_CONFIG', `no KDC for realm ${client.realm}: give the kdc option, or a krb5.conf with [realms] ${client.realm} = { kdc = host:port }`);
    }
    const kdc = kdcCaller(context.transport, kdcText.map(parseKdcAddress), o.kdcTimeoutMs ?? DEFAULT_KDC_TIMEOUT_MS);
    this.#setup = { client, login: { kdc, now: this.#now } };
    return this.#setup;
  }
}

/** One connection's login: AP-REQ, AP-REP check, empty token, security-layer answer, done. */
class GssapiExchange implements SaslExchange {
  readonly #tickets: TicketStore;
  readonly #context: SaslContext;
  readonly #now: () => Date;
  #gss: InitiatorContext | undefined;
  #step: 'reply' | 'offer' | 'done' = 'reply';
  #authzid = '';

  constructor(tickets: TicketStore, context: SaslContext, now: () => Date) {
    this.#tickets = tickets;
    this.#context = context;
    this.#now = now;
  }

  async initial(): Promise<Uint8Array> {
    const ticket = await this.#tickets.serviceTicket(this.#context);
    this.#authzid = `${ticket.client.name.names.join('/')}@${ticket.client.realm}`;
    this.#gss = new InitiatorContext(ticket, this.#now);
    return this.#gss.initialToken();
  }

  async next(token: Uint8Array): Promise<Uint8Array | undefined> {
    const gss = this.#gss;
    if (gss === undefined) throw kerberosError('BAD_REPLY', 'a server token before our first one');
    switch (this.#step) {
      case 'reply':
        await gss.acceptReply(token);
        this.#step = 'offer';
        // RFC 4752 3.1: once the context is established the client sends an empty token; the server then offers.
        return new Uint8Array(0);
      case 'offer': {
        const offer = await gss.unwrap(token);
        if (offer.length !== 4) throw kerberosError('BAD_REPLY', `the server's security-layer offer has ${offer.length} bytes, not 4`);
        if ((offer[0]! & 0x01) === 0) throw kerberosError('BAD_REPLY', 'the server requires a SASL security layer (integrity or privacy), which ZooKeeper does not use');
        this.#step = 'done';
        const authzid = utf8Encode(this.#authzid);
        const answer = new Uint8Array(4 + authzid.length);
        answer[0] = 0x01; // no security layer, max buffer 0
        answer.set(authzid, 4);
        return gss.wrap(answer);
      }
      case 'done':
        return undefined;
    }
  }
}
