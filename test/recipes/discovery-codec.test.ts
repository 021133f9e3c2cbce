import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ZooKeeperError } from '../../src/errors.js';
import { decodeServiceInstance, encodeServiceInstance } from '../../src/recipes/discovery/instance-codec.js';
import { jacksonString } from '../../src/recipes/discovery/jackson-json.js';
import { localAddress, localAddressFrom } from '../../src/recipes/discovery/local-address.js';
import { dubboPayload, readZookeeperInstance, springCloudPayload } from '../../src/recipes/discovery/payloads.js';
import { createModeOf, serviceInstance } from '../../src/recipes/discovery/service-instance.js';
import { buildUriSpec, parseUriSpec } from '../../src/recipes/discovery/uri-spec.js';
import { instanceFromSpec, type CuratorInstanceSpec } from '../interop/curator-peer.js';

/**
 * The instance JSON against bytes real Curator 5.4 wrote (JsonInstanceSerializer, compatible mode), captured by
 * the Curator peer's `sd-serialize` from the `.spec.json` next to each fixture (test/fixtures/discovery). The
 * interop test (test/interop/curator-discovery.test.ts) checks the same against a live Curator.
 */
const FIXTURES = new URL('../fixtures/discovery/', import.meta.url);
const NAMES = ['spring-dynamic', 'bare-static', 'escapes-permanent', 'sequential-empty-metadata'];

type Spec = CuratorInstanceSpec;

function load(name: string): { spec: Spec; bytes: Uint8Array } {
  return {
    spec: JSON.parse(fs.readFileSync(new URL(`${name}.spec.json`, FIXTURES), 'utf8')) as Spec,
    bytes: new Uint8Array(fs.readFileSync(new URL(`${name}.json`, FIXTURES))),
  };
}

const fromSpec = instanceFromSpec;

describe('ServiceInstance JSON, byte for byte as Curator writes it', () => {
  for (const name of NAMES) {
    it(`encodes ${name} to Curator's bytes and decodes them back`, () => {
      const { spec, bytes } = load(name);
      const ours = fromSpec(spec);
      expect(Buffer.from(encodeServiceInstance(ours)).toString('utf8')).toBe(Buffer.from(bytes).toString('utf8'));
      expect(encodeServiceInstance(ours)).toEqual(bytes);
      // compatible mode carries no `enabled`: Curator reads it back enabled, and so do we
      expect(decodeServiceInstance(bytes)).toEqual({ ...ours, enabled: true });
    });
  }

  it('writes `enabled` last in non-compatible mode, and reads it', () => {
    const { spec } = load('bare-static');
    const off = { ...fromSpec(spec), enabled: false };
    const text = Buffer.from(encodeServiceInstance(off, { compatible: false })).toString('utf8');
    expect(text.endsWith(',"uriSpec":null,"enabled":false}')).toBe(true);
    expect(decodeServiceInstance(encodeServiceInstance(off, { compatible: false })).enabled).toBe(false);
  });

  it('escapes strings as Jackson does, not as JSON.stringify', () => {
    expect(jacksonString('a\u0001\u001f\u007f\u2028/')).toBe('"a\\u0001\\u001F\u007f\u2028/"');
    expect(jacksonString('\u{1F600}')).toBe('"\\uD83D\\uDE00"');
    expect(jacksonString('"\\\b\t\n\f\r')).toBe('"\\"\\\\\\b\\t\\n\\f\\r"');
  });

  it('reads tolerantly: unknown fields, no `enabled`, no serviceType, a payload of any class', () => {
    const text = JSON.stringify({
      extra: { nested: [1] },
      name: 'n',
      id: 'i',
      payload: { '@class': 'com.example.Other', x: 1 },
      registrationTimeUTC: 5,
      uriSpec: { parts: [{ value: 'port', variable: true }], more: true },
      later: 'ignored',
    });
    const read = decodeServiceInstance(new TextEncoder().encode(text));
    expect(read).toEqual({
      name: 'n',
      id: 'i',
      address: null,
      port: null,
      sslPort: null,
      payload: { '@class': 'com.example.Other', x: 1 },
      registrationTimeUTC: 5,
      serviceType: 'DYNAMIC',
      uriSpec: { parts: [{ value: 'port', variable: true }] },
      enabled: true,
    });
  });

  it('refuses data that is not an instance with a typed error naming the path', () => {
    const cases: [string | Uint8Array, RegExp][] = [
      ['', /no data/],
      ['not json', /not JSON/],
      [new Uint8Array([0x7b, 0xff, 0x7d]), /not JSON/],
      ['[1,2]', /not an object/],
      ['{"name":"n","id":"i","port":"8080"}', /"port" is a string/],
      ['{"name":"n","id":"i","serviceType":"WEIRD"}', /"serviceType"/],
      ['{"name":"n","id":"i","enabled":"yes"}', /"enabled"/],
      ['{"name":"n","id":"i","uriSpec":{"parts":[{"value":1}]}}', /uriSpec.parts\[0\]/],
    ];
    for (const [data, message] of cases) {
      const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
      let caught: unknown;
      try {
        decodeServiceInstance(bytes, '/services/x/y');
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(ZooKeeperError);
      expect((caught as ZooKeeperError).code).toBe('MARSHALLINGERROR');
      expect((caught as ZooKeeperError).path).toBe('/services/x/y');
      expect((caught as ZooKeeperError).message).toMatch(message);
    }
  });
});

describe('serviceInstance(): Curator builder defaults and checks', () => {
  it('fills a UUID id, now, DYNAMIC, enabled, and this host\'s address', () => {
    const before = Date.now();
    const i = serviceInstance({ name: 'svc', port: 80 });
    expect(i.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(i.registrationTimeUTC).toBeGreaterThanOrEqual(before);
    expect(i).toMatchObject({ serviceType: 'DYNAMIC', enabled: true, sslPort: null, payload: null, uriSpec: null, port: 80 });
    expect(i.address).toBe(localAddress());
  });

  it('picks the first non-loopback, non-link-local address, IPv4 first; undefined where interfaces cannot be listed', () => {
    const list = () => ({
      lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true }],
      eth0: [
        { address: 'fe80::1', family: 'IPv6', internal: false },
        { address: '2001:db8::5', family: 'IPv6', internal: false },
        { address: '169.254.3.4', family: 'IPv4', internal: false },
      ],
      eth1: [{ address: '10.1.2.3', family: 'IPv4', internal: false }],
    });
    expect(localAddressFrom(list)).toBe('10.1.2.3');
    expect(localAddressFrom(() => ({ lo: [{ address: '::1', family: 'IPv6', internal: true }] }))).toBe(null);
    expect(localAddressFrom(undefined)).toBe(undefined);
  });

  it('refuses names and ids that are not node names, and payload objects without @class, before anything is sent', () => {
    const bad = [
      { name: 'a/b' },
      { name: '' },
      { name: '..' },
      { name: 'ok', id: 'x\u0000' },
      { name: 'ok', id: '\ud83d\ude00' },
      { name: 'ok', port: 1.5 },
      { name: 'ok', port: 2 ** 31 },
      { name: 'ok', payload: { id: 'no class' } },
      { name: 'ok', payload: [1, 2] as never },
      { name: 'ok', serviceType: 'OTHER' as never },
    ];
    for (const options of bad) {
      expect(() => serviceInstance({ address: 'h', ...options }), JSON.stringify(options)).toThrow(
        expect.objectContaining({ code: 'BAD_ARGUMENT' }) as Error,
      );
    }
  });

  it('maps service types to Curator\'s node modes', () => {
    expect(createModeOf('DYNAMIC')).toBe('ephemeral');
    expect(createModeOf('DYNAMIC_SEQUENTIAL')).toBe('ephemeral-sequential');
    expect(createModeOf('STATIC')).toBe('persistent');
    expect(createModeOf('PERMANENT')).toBe('persistent');
  });
});

describe('UriSpec', () => {
  it('parses as Curator does and builds the URIs Curator built for the fixtures', () => {
    expect(parseUriSpec('{scheme}://{ address }:{port}')).toEqual({
      parts: [
        { value: 'scheme', variable: true },
        { value: '://', variable: false },
        { value: 'address', variable: true },
        { value: ':', variable: false },
        { value: 'port', variable: true },
      ],
    });
    // the URIs Curator's buildUriSpec() gave for the fixtures (sd-deserialize in the peer)
    expect(buildUriSpec(fromSpec(load('spring-dynamic').spec))).toBe('https://10.0.0.7:8080/api');
    expect(buildUriSpec(fromSpec(load('escapes-permanent').spec))).toBe('x{svc}yz');
    expect(buildUriSpec(fromSpec(load('bare-static').spec))).toBe('');
    const plain = serviceInstance({ name: 's', id: 'i', address: 'h', port: 1, uriSpec: '{scheme}://{address}:{port}/{service-type}/{x}' });
    expect(buildUriSpec(plain)).toBe('http://h:1/dynamic/');
    expect(buildUriSpec(plain, { x: 'y', scheme: 'ftp' })).toBe('ftp://h:1/dynamic/y');
  });

  it('refuses broken templates', () => {
    for (const raw of ['{a{b}}', 'a}', '{open']) expect(() => parseUriSpec(raw)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }) as Error);
  });
});

describe('payload helpers', () => {
  it('Spring Cloud and Dubbo ZookeeperInstance, @class first', () => {
    const spring = springCloudPayload({ id: 'app-8080', name: 'app', metadata: { instance_status: 'UP' } });
    expect(Object.keys(spring)).toEqual(['@class', 'id', 'name', 'metadata']);
    expect(spring['@class']).toBe('org.springframework.cloud.zookeeper.discovery.ZookeeperInstance');
    expect(dubboPayload({ id: 'h:1', name: 'app' })['@class']).toBe('org.apache.dubbo.registry.zookeeper.ZookeeperInstance');
    expect(readZookeeperInstance(spring)).toEqual({ id: 'app-8080', name: 'app', metadata: { instance_status: 'UP' } });
    expect(readZookeeperInstance({ '@class': 'x.Y' })).toBeUndefined();
  });
});
