/**
 * An instance's node data, byte for byte as Curator's JsonInstanceSerializer writes it: Jackson's JSON of
 * ServiceInstance with the fields in Curator's order (name, id, address, port, sslPort, payload,
 * registrationTimeUTC, serviceType, uriSpec), the payload in Jackson's polymorphic form (`@class` first), the
 * uriSpec as `{"parts":[{"value","variable"}]}`. Curator's default, compatible mode leaves `enabled` out (readers
 * older than Curator 2.x's `enabled` would fail on it); `compatible: false` writes it last, as Curator's
 * non-compatible mode does.
 *
 * Reading is as tolerant as Curator's (unknown fields are ignored, a missing field takes the default of Curator's
 * no-argument constructor: `enabled` true, `serviceType` DYNAMIC) and as strict about types: anything else is a
 * MARSHALLINGERROR saying what is wrong, never a half-read instance.
 */

import type { ZooKeeperError } from '../../errors.js';
import { recipeError } from '../common/errors.js';
import { utf8Encode } from '../../protocol/utf8.js';
import { jacksonString, jacksonValue, type JsonValue } from './jackson-json.js';
import { checkServiceInstance, SERVICE_TYPES, type JavaObject, type ServiceInstance, type ServicePayload, type ServiceType } from './service-instance.js';
import type { UriSpec, UriSpecPart } from './uri-spec.js';

/** How an instance is written. */
export interface InstanceCodecOptions {
  /** Curator's compatibleSerializationMode: leave `enabled` out. Default true, as Curator's JsonInstanceSerializer. */
  readonly compatible?: boolean;
}

/** The node data for `instance`. BAD_ARGUMENT when the instance could not be registered (see checkServiceInstance). */
export function encodeServiceInstance(instance: ServiceInstance, options: InstanceCodecOptions = {}): Uint8Array {
  checkServiceInstance(instance, 'encodeServiceInstance');
  const fields = [
    `"name":${jacksonString(instance.name)}`,
    `"id":${jacksonString(instance.id)}`,
    `"address":${instance.address === null ? 'null' : jacksonString(instance.address)}`,
    `"port":${jacksonValue(instance.port)}`,
    `"sslPort":${jacksonValue(instance.sslPort)}`,
    `"payload":${payloadJson(instance.payload)}`,
    `"registrationTimeUTC":${jacksonValue(instance.registrationTimeUTC)}`,
    `"serviceType":${jacksonString(instance.serviceType)}`,
    `"uriSpec":${instance.uriSpec === null ? 'null' : uriSpecJson(instance.uriSpec)}`,
  ];
  if (options.compatible === false) fields.push(`"enabled":${instance.enabled ? 'true' : 'false'}`);
  return utf8Encode(`{${fields.join(',')}}`);
}

function payloadJson(payload: ServicePayload | null): string {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return jacksonValue(payload as JsonValue);
  // Jackson writes the type id first, then the fields
  const { '@class': javaClass, ...fields } = payload as JavaObject;
  const rest = jacksonValue(fields as JsonValue);
  return `{"@class":${jacksonString(javaClass as string)}${rest === '{}' ? '' : ',' + rest.slice(1, -1)}}`;
}

function uriSpecJson(spec: UriSpec): string {
  const parts = spec.parts.map((p) => `{"value":${jacksonString(p.value)},"variable":${p.variable ? 'true' : 'false'}}`);
  return `{"parts":[${parts.join(',')}]}`;
}

/**
 * The instance in a node's data. MARSHALLINGERROR (with `path` when given) when the data is not Curator's JSON
 * of an instance.
 */
export function decodeServiceInstance(data: Uint8Array, path?: string): ServiceInstance {
  const bad = (detail: string, cause?: unknown): ZooKeeperError =>
    recipeError('MARSHALLINGERROR', 'decodeServiceInstance', path, detail, cause);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(data));
  } catch (err) {
    throw bad(data.length === 0 ? 'the node has no data' : 'the data is not JSON (UTF-8)', err);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw bad('the JSON is not an object');
  const o = json as Record<string, unknown>;
  const field = <T>(name: string, fallback: T, accept: (v: unknown) => v is T, expected: string): T => {
    if (!Object.hasOwn(o, name)) return fallback;
    const v = o[name];
    if (!accept(v)) throw bad(`"${name}" is ${describe(v)}, expected ${expected}`);
    return v;
  };
  const isString = (v: unknown): v is string => typeof v === 'string';
  const isStringOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';
  const isIntOrNull = (v: unknown): v is number | null => v === null || Number.isInteger(v);
  const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
  const isType = (v: unknown): v is ServiceType | null => v === null || SERVICE_TYPES.includes(v as ServiceType);
  const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
  const isUriSpec = (v: unknown): v is { parts?: unknown } | null => v === null || (typeof v === 'object' && !Array.isArray(v));
  const uriSpec = field('uriSpec', null, isUriSpec, 'an object with "parts", or null');
  return {
    name: field('name', '', isString, 'a string'),
    id: field('id', '', isString, 'a string'),
    address: field('address', null, isStringOrNull, 'a string or null'),
    port: field('port', null, isIntOrNull, 'an integer or null'),
    sslPort: field('sslPort', null, isIntOrNull, 'an integer or null'),
    payload: Object.hasOwn(o, 'payload') ? (o['payload'] as JsonValue) : null,
    registrationTimeUTC: field('registrationTimeUTC', 0, isNumber, 'an integer'),
    serviceType: field('serviceType', null, isType, SERVICE_TYPES.join(', ')) ?? 'DYNAMIC',
    uriSpec: uriSpec === null ? null : readUriSpec(uriSpec, bad),
    enabled: field('enabled', true, isBoolean, 'a boolean'),
  };
}

function readUriSpec(spec: { parts?: unknown }, bad: (detail: string) => ZooKeeperError): UriSpec {
  if (spec.parts === undefined || spec.parts === null) return { parts: [] };
  if (!Array.isArray(spec.parts)) throw bad('"uriSpec.parts" is not an array');
  const parts: UriSpecPart[] = spec.parts.map((p: unknown, i) => {
    if (p === null || typeof p !== 'object') throw bad(`"uriSpec.parts[${i}]" is not an object`);
    const { value = '', variable = false } = p as { value?: unknown; variable?: unknown };
    if (typeof value !== 'string' || typeof variable !== 'boolean') throw bad(`"uriSpec.parts[${i}]" needs a string "value" and a boolean "variable"`);
    return { value, variable };
  });
  return { parts };
}

function describe(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : `${typeof v === 'object' ? 'an' : 'a'} ${typeof v} (${JSON.stringify(v).slice(0, 40)})`;
}
