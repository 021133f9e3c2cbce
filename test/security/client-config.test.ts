/** Reading ZooKeeper's client configuration and JAAS files as Java does, without a disk: text in, settings out. */

import { describe, expect, it } from 'vitest';
import { configuredConnection, jaasLogin, parseJaas, parseProperties, splitPemKeyStore } from '../../src/cli/client-config.js';

describe('client configuration properties', () => {
  it('reads = and : separators, comments, escapes and continuations', () => {
    const props = parseProperties(
      ['# a comment', '! another', 'zookeeper.client.secure=true', 'a.b : spaced', 'path=C\\:\\\\zk\\\\ca.pem', 'long=one\\', '    two', 'bare'].join('\n'),
    );
    expect(Object.fromEntries(props)).toEqual({ 'zookeeper.client.secure': 'true', 'a.b': 'spaced', path: 'C:\\zk\\ca.pem', long: 'onetwo', bare: '' });
  });

  it('turns secure=true and PEM stores into TLS files, and refuses JKS/PKCS12 stores by name', () => {
    const props = new Map([
      ['zookeeper.client.secure', 'true'],
      ['zookeeper.ssl.trustStore.location', '/etc/zk/ca.pem'],
      ['zookeeper.ssl.trustStore.type', 'PEM'],
      ['zookeeper.ssl.keyStore.location', '/etc/zk/client.pem'],
    ]);
    expect(configuredConnection(props)).toEqual({ tls: { ca: '/etc/zk/ca.pem', keyStore: '/etc/zk/client.pem' } });
    props.set('zookeeper.ssl.keyStore.location', '/etc/zk/client.jks');
    props.set('zookeeper.ssl.keyStore.type', 'JKS');
    expect(configuredConnection(props)).toMatch(/keyStore.location: only PEM stores are read .*JKS/);
    expect(configuredConnection(new Map([['zookeeper.ssl.trustStore.location', '/x.pem']]))).toEqual({});
  });

  it('finds the JAAS file in the properties or in CLIENT_JVMFLAGS, with the section zookeeper.sasl.clientconfig names', () => {
    expect(configuredConnection(new Map([['java.security.auth.login.config', '/j.conf']]))).toEqual({ jaas: { file: '/j.conf', section: 'Client' } });
    expect(configuredConnection(new Map([['zookeeper.sasl.clientconfig', 'ZkClient']]), '-Xmx1g -Djava.security.auth.login.config=/etc/jaas.conf')).toEqual({
      jaas: { file: '/etc/jaas.conf', section: 'ZkClient' },
    });
    expect(configuredConnection(new Map([['zookeeper.sasl.client', 'false'], ['java.security.auth.login.config', '/j.conf']]))).toEqual({});
  });
});

describe('JAAS files', () => {
  const jaas = `
    /* the broker's */ Server {
      org.apache.zookeeper.server.auth.DigestLoginModule required
      user_alice="x";
    };
    // what clients use
    Client {
      org.apache.zookeeper.server.auth.DigestLoginModule required
      username="alice"
      password="s3cret; with \\"quotes\\"";
    };
    KerberosClient {
      com.sun.security.auth.module.Krb5LoginModule required
      useKeyTab=true keyTab="/etc/zk.keytab" storeKey=true
      principal="zkcli@EXAMPLE.COM";
    };`;

  it('reads sections, modules and quoted options', () => {
    const sections = parseJaas(jaas);
    expect([...sections.keys()]).toEqual(['Server', 'Client', 'KerberosClient']);
    expect(jaasLogin(sections.get('Client') ?? [], 'Client')).toEqual({ mechanism: 'digest', username: 'alice', password: 's3cret; with "quotes"' });
    expect(jaasLogin(sections.get('KerberosClient') ?? [], 'KerberosClient')).toEqual({ mechanism: 'gssapi', principal: 'zkcli@EXAMPLE.COM', keytab: '/etc/zk.keytab' });
    expect(jaasLogin(sections.get('Server') ?? [], 'Server')).toMatch(/needs username and password/);
  });

  it('says where a broken file breaks', () => {
    expect(() => parseJaas('Client { module required key "v"; };')).toThrow(/"=" expected after option key/);
    expect(() => parseJaas('Client { module required')).toThrow(/ends in the middle/);
  });
});

describe('PEM key stores', () => {
  const cert = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';
  const key = '-----BEGIN PRIVATE KEY-----\nMIGH\n-----END PRIVATE KEY-----';
  it('split into the key and the certificate chain', () => {
    expect(splitPemKeyStore(`${key}\n${cert}\n${cert}\n`)).toEqual({ key: `${key}\n`, cert: `${cert}\n${cert}\n` });
    expect(splitPemKeyStore(cert)).toMatch(/one private key and its certificate/);
    expect(splitPemKeyStore(`${key.replaceAll('PRIVATE', 'ENCRYPTED PRIVATE')}\n${cert}`)).toMatch(/encrypted private key/);
  });
});
