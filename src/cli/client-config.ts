/**
 * ZooKeeper's own client configuration, as Java clients already have it: the properties file zkCli.sh takes with
 * `-client-configuration` and the JAAS file its SASL login reads. Reading them lets an operator point `zkwire` at
 * what their services use instead of translating it into flags. Pure text in, settings out: the files are read by
 * the caller (connection.ts), so the parsing is tested without a disk.
 */

/** The connection settings a client configuration asks for (file names, not their contents). */
export interface ConfiguredConnection {
  /** zookeeper.client.secure=true */
  tls?: { ca?: string; keyStore?: string };
  /** From the JAAS section zookeeper.sasl.clientconfig names (default `Client`). */
  sasl?: ConfiguredSasl;
}

/** A JAAS login the CLI can perform. */
export type ConfiguredSasl =
  | { readonly mechanism: 'digest'; readonly username: string; readonly password: string }
  | { readonly mechanism: 'gssapi'; readonly principal: string; readonly keytab?: string };

/** One login module entry of a JAAS section: its class and options. */
export interface JaasEntry {
  readonly loginModule: string;
  readonly options: Readonly<Record<string, string>>;
}

/** Java `.properties` text: `key=value` / `key: value` / `key value` lines, `#`/`!` comments, `\` continuations. */
export function parseProperties(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    let line = (lines[i] ?? '').trimStart();
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    while (/(^|[^\\])(\\\\)*\\$/.test(line) && i + 1 < lines.length) line = line.slice(0, -1) + (lines[++i] ?? '').trimStart();
    const match = /^((?:\\.|[^=:\s\\])+)\s*[=:\s]\s*(.*)$/.exec(line);
    const key = unescape(match?.[1] ?? line);
    out.set(key, unescape(match?.[2] ?? ''));
  }
  return out;
}

function unescape(text: string): string {
  return text.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, c: string) =>
    c.length === 5 ? String.fromCharCode(parseInt(c.slice(1), 16)) : c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c,
  );
}

/** The sections of a JAAS login configuration: `Name { module flag key=value ...; ... };`. */
export function parseJaas(text: string): Map<string, JaasEntry[]> {
  const tokens = jaasTokens(text);
  const sections = new Map<string, JaasEntry[]>();
  let i = 0;
  const next = (): string => {
    const t = tokens[i++];
    if (t === undefined) throw new Error('the JAAS file ends in the middle of a section');
    return t;
  };
  while (i < tokens.length) {
    const name = next();
    if (next() !== '{') throw new Error(`JAAS section ${name}: "{" expected after its name`);
    const entries: JaasEntry[] = [];
    for (let t = next(); t !== '}'; t = next()) {
      const loginModule = t;
      next(); // the control flag (required, requisite, sufficient, optional): one module per section here
      const options: Record<string, string> = {};
      for (let o = next(); o !== ';'; o = next()) {
        if (next() !== '=') throw new Error(`JAAS section ${name}: "=" expected after option ${o}`);
        options[o] = unquote(next());
      }
      entries.push({ loginModule, options });
    }
    if (tokens[i] === ';') i++;
    sections.set(name, entries);
  }
  return sections;
}

function jaasTokens(text: string): string[] {
  const withoutComments = text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:"])\/\/.*$/gm, '$1');
  return withoutComments.match(/"(?:\\.|[^"\\])*"|[{};=]|[^\s{};="]+/g) ?? [];
}

function unquote(token: string): string {
  return token.startsWith('"') ? token.slice(1, -1).replace(/\\(.)/g, '$1') : token;
}

/** The login a JAAS section describes, or the reason the CLI cannot perform it. */
export function jaasLogin(entries: readonly JaasEntry[], section: string): ConfiguredSasl | string {
  for (const { loginModule, options } of entries) {
    if (loginModule.endsWith('.DigestLoginModule')) {
      const { username, password } = options;
      if (username === undefined || password === undefined) return `JAAS section ${section}: DigestLoginModule needs username and password`;
      return { mechanism: 'digest', username, password };
    }
    if (loginModule.endsWith('.Krb5LoginModule')) {
      const principal = options['principal'];
      if (principal === undefined) return `JAAS section ${section}: Krb5LoginModule needs a principal`;
      const keytab = options['useKeyTab'] === 'true' ? options['keyTab'] : undefined;
      return { mechanism: 'gssapi', principal, ...(keytab === undefined ? {} : { keytab }) };
    }
  }
  return `JAAS section ${section} has neither a DigestLoginModule nor a Krb5LoginModule`;
}

/** What a JAAS file is needed for, when the configuration asks for SASL: its path and the section to use. */
export interface JaasRequest {
  readonly file: string;
  readonly section: string;
}

/**
 * The settings a client configuration's properties ask for, or the first reason they cannot be honoured; `jaas`
 * is where the JAAS file would be named outside the properties (the `-Djava.security.auth.login.config=` of the
 * `CLIENT_JVMFLAGS` environment variable zkCli.sh passes to Java).
 */
export function configuredConnection(props: ReadonlyMap<string, string>, jvmFlags = ''): { tls?: ConfiguredConnection['tls']; jaas?: JaasRequest } | string {
  const out: { tls?: ConfiguredConnection['tls']; jaas?: JaasRequest } = {};
  if (props.get('zookeeper.client.secure') === 'true') {
    const tls: { ca?: string; keyStore?: string } = {};
    for (const [store, field] of [['trustStore', 'ca'], ['keyStore', 'keyStore']] as const) {
      const location = props.get(`zookeeper.ssl.${store}.location`);
      if (location === undefined || location === '') continue;
      const type = props.get(`zookeeper.ssl.${store}.type`) ?? (/\.pem$/i.test(location) ? 'PEM' : undefined);
      if (type?.toUpperCase() !== 'PEM') {
        return `zookeeper.ssl.${store}.location: only PEM stores are read (set zookeeper.ssl.${store}.type=PEM); convert a ${type ?? 'JKS/PKCS12'} store with keytool and openssl`;
      }
      tls[field] = location;
    }
    out.tls = tls;
  }
  if (props.get('zookeeper.sasl.client') !== 'false') {
    const fromFlags = /-Djava\.security\.auth\.login\.config=("[^"]*"|\S+)/.exec(jvmFlags)?.[1];
    const file = props.get('java.security.auth.login.config') ?? (fromFlags === undefined ? undefined : unquote(fromFlags));
    if (file !== undefined) out.jaas = { file, section: props.get('zookeeper.sasl.clientconfig') ?? 'Client' };
  }
  return out;
}

/** A PEM key store (ZooKeeper's `.type=PEM`: the private key and the certificate chain in one file) split in two. */
export function splitPemKeyStore(pem: string): { cert: string; key: string } | string {
  const blocks = pem.match(/-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g) ?? [];
  const key = blocks.filter((b) => /^-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(b));
  const certs = blocks.filter((b) => b.startsWith('-----BEGIN CERTIFICATE-----'));
  if (key.some((b) => b.includes('ENCRYPTED'))) return 'the PEM key store holds an encrypted private key: give it unencrypted';
  if (key.length !== 1 || certs.length === 0) return 'a PEM key store must hold one private key and its certificate (chain)';
  return { key: `${key[0]}\n`, cert: `${certs.join('\n')}\n` };
}
