/**
 * The CLI's security settings, from the flags and a client configuration file, turned into client options: `tls`
 * with the PEM files read, and a SASL mechanism with its password from a file, the environment or a prompt (never
 * from argv). Flags win over the configuration file, field by field.
 */

import { readFile } from 'node:fs/promises';
import { clientError } from '../errors.js';
import { saslDigestMd5, type ClientOptions, type SaslMechanism, type TlsOptions } from '../node.js';
import { configuredConnection, jaasLogin, parseJaas, parseProperties, splitPemKeyStore, type ConfiguredSasl } from './client-config.js';
import { canPrompt, promptHidden } from './password-prompt.js';
import type { SecurityFlags } from './types.js';

/** The environment variable a SASL digest password may come from. */
export const SASL_PASSWORD_ENV = 'ZKWIRE_SASL_PASSWORD';

/** Where the settings come from besides the flags (tests pass their own). */
export interface SecuritySources {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Asks for a password interactively, or undefined when there is no terminal to ask at. */
  readonly prompt: ((question: string) => Promise<string>) | undefined;
}

const processSources = (): SecuritySources => ({ env: process.env, prompt: canPrompt() ? promptHidden : undefined });

/** The `tls` and `sasl` client options the flags (and `--config`) ask for; nothing when they ask for neither. */
export async function securityOptions(flags: SecurityFlags | undefined, sources: SecuritySources = processSources()): Promise<Pick<ClientOptions, 'tls' | 'sasl'>> {
  if (flags === undefined) return {};
  const configured = flags.config === undefined ? {} : await fromConfigFile(flags.config, sources.env['CLIENT_JVMFLAGS'] ?? '');
  const out: { tls?: true | TlsOptions; sasl?: SaslMechanism } = {};

  const tlsFiles = { ca: flags.tlsCa ?? configured.tls?.ca, cert: flags.tlsCert, key: flags.tlsKey };
  if (flags.tls === true || configured.tls !== undefined || Object.values(tlsFiles).some((f) => f !== undefined)) {
    const tls: { ca?: string; cert?: string; key?: string } = {};
    if (tlsFiles.ca !== undefined) tls.ca = await readText(tlsFiles.ca, '--tls-ca');
    if (tlsFiles.cert === undefined && tlsFiles.key === undefined && configured.tls?.keyStore !== undefined) {
      const split = splitPemKeyStore(await readText(configured.tls.keyStore, 'zookeeper.ssl.keyStore.location'));
      if (typeof split === 'string') throw usage(`${configured.tls.keyStore}: ${split}`);
      Object.assign(tls, split);
    } else if ((tlsFiles.cert === undefined) !== (tlsFiles.key === undefined)) {
      throw usage('--tls-cert and --tls-key go together: a client certificate needs its key');
    } else if (tlsFiles.cert !== undefined && tlsFiles.key !== undefined) {
      tls.cert = await readText(tlsFiles.cert, '--tls-cert');
      tls.key = await readText(tlsFiles.key, '--tls-key');
    }
    out.tls = Object.keys(tls).length === 0 ? true : tls;
  }

  const sasl = flags.sasl === undefined ? configured.sasl : await fromSaslFlags(flags, sources);
  if (sasl !== undefined) out.sasl = mechanism(sasl);
  return out;
}

/** `--sasl digest:USER` (password from --sasl-password-file, the environment or a prompt) or `--sasl gssapi`. */
async function fromSaslFlags(flags: SecurityFlags, sources: SecuritySources): Promise<ConfiguredSasl> {
  const value = flags.sasl ?? '';
  if (value === 'gssapi') {
    if (flags.principal === undefined) throw usage('--sasl gssapi needs --principal (and --keytab, or a password prompt)');
    return { mechanism: 'gssapi', principal: flags.principal, ...(flags.keytab === undefined ? {} : { keytab: flags.keytab }) };
  }
  const digest = /^digest:(.+)$/.exec(value);
  if (digest === null) throw usage(`--sasl takes digest:USER or gssapi, got ${JSON.stringify(value)}`);
  const username = digest[1] ?? '';
  if (username.includes(':')) {
    throw usage('--sasl digest:USER takes no password: give it with --sasl-password-file, ZKWIRE_SASL_PASSWORD or at the prompt');
  }
  return { mechanism: 'digest', username, password: await saslPassword(username, flags, sources) };
}

async function saslPassword(username: string, flags: SecurityFlags, sources: SecuritySources): Promise<string> {
  if (flags.saslPasswordFile !== undefined) {
    // One trailing newline is the file's, not the password's (echo secret > file).
    return (await readText(flags.saslPasswordFile, '--sasl-password-file')).replace(/\r?\n$/, '');
  }
  const fromEnv = sources.env[SASL_PASSWORD_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  if (sources.prompt !== undefined) return sources.prompt(`SASL password for ${username}: `);
  throw usage(`--sasl digest:${username} needs a password: --sasl-password-file FILE, or ${SASL_PASSWORD_ENV} in the environment, or a terminal to ask at`);
}

function mechanism(sasl: ConfiguredSasl): SaslMechanism {
  if (sasl.mechanism === 'digest') return saslDigestMd5({ username: sasl.username, password: sasl.password });
  throw usage(`SASL GSSAPI (Kerberos, for ${sasl.principal}) is not available in this build of zkwire; DIGEST-MD5 is (--sasl digest:USER)`);
}

async function fromConfigFile(file: string, jvmFlags: string): Promise<{ tls?: { ca?: string; keyStore?: string }; sasl?: ConfiguredSasl }> {
  const configured = configuredConnection(parseProperties(await readText(file, '--config')), jvmFlags);
  if (typeof configured === 'string') throw usage(`${file}: ${configured}`);
  const out: { tls?: { ca?: string; keyStore?: string }; sasl?: ConfiguredSasl } = {};
  if (configured.tls !== undefined) out.tls = configured.tls;
  if (configured.jaas !== undefined) {
    const { file: jaasFile, section } = configured.jaas;
    let sections: Map<string, { loginModule: string; options: Readonly<Record<string, string>> }[]>;
    try {
      sections = parseJaas(await readText(jaasFile, 'the JAAS file'));
    } catch (e) {
      throw usage(`${jaasFile}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const entries = sections.get(section);
    // Java goes without SASL when the section is missing, and so does the CLI.
    if (entries !== undefined) {
      const login = jaasLogin(entries, section);
      if (typeof login === 'string') throw usage(`${jaasFile}: ${login}`);
      out.sasl = login;
    }
  }
  return out;
}

async function readText(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    throw usage(`${what}: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
}

function usage(message: string): Error {
  return clientError('BAD_ARGUMENT', message, { op: 'connect' });
}
