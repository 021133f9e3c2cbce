/**
 * The part of krb5.conf (MIT's profile format) a client needs: `[libdefaults] default_realm` and each realm's
 * `kdc` lines in `[realms] REALM = { kdc = host:port }`. Parsed from text, so the portable entry can take the file's
 * contents; the Node entry reads KRB5_CONFIG or /etc/krb5.conf.
 */

export interface Krb5Config {
  readonly defaultRealm?: string | undefined;
  /** KDC addresses ("host[:port]") by realm, in file order. */
  readonly kdcs: ReadonlyMap<string, readonly string[]>;
}

export function parseKrb5Config(text: string): Krb5Config {
  let section = '';
  let realm: string | undefined;
  let defaultRealm: string | undefined;
  const kdcs = new Map<string, string[]>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/^\s+|\s+$/g, '');
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[([^\]]+)\]/.exec(line);
    if (header !== null) {
      section = header[1]!.trim();
      realm = undefined;
      continue;
    }
    if (line === '}') {
      realm = undefined;
      continue;
    }
    const open = /^([^=\s]+)\s*=\s*\{$/.exec(line);
    if (open !== null) {
      if (section === 'realms') realm = open[1]!;
      continue;
    }
    const pair = /^([^=\s]+)\s*=\s*(.*)$/.exec(line);
    if (pair === null) continue;
    const [, key, value] = pair as unknown as [string, string, string];
    if (section === 'libdefaults' && key === 'default_realm') defaultRealm = value.trim();
    if (section === 'realms' && realm !== undefined && key === 'kdc') {
      const list = kdcs.get(realm) ?? [];
      list.push(value.trim());
      kdcs.set(realm, list);
    }
  }
  return { defaultRealm, kdcs };
}
