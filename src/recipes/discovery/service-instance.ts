/**
 * Curator's ServiceInstance: one registered instance of a service, every field of curator-x-discovery's, with
 * Java's nulls kept as `null` so that an instance read from ZooKeeper and written back is the same. The factory
 * fills the defaults Curator's `ServiceInstance.builder()` fills (a random UUID id, the host's address, now as
 * the registration time, DYNAMIC, enabled) and refuses, before anything is sent, what could not be a node name.
 */

import type { CreateMode } from '../../client/create-mode.js';
import type { ZooKeeperError } from '../../errors.js';
import { badArgument } from '../common/errors.js';
import type { JsonValue } from './jackson-json.js';
import { localAddress } from './local-address.js';
import { parseUriSpec, type UriSpec } from './uri-spec.js';

/**
 * How an instance's node lives (Curator's ServiceType): DYNAMIC an ephemeral node (gone with the session, created
 * again on the next), DYNAMIC_SEQUENTIAL an ephemeral sequential one, STATIC and PERMANENT persistent nodes.
 */
export type ServiceType = 'DYNAMIC' | 'STATIC' | 'PERMANENT' | 'DYNAMIC_SEQUENTIAL';

/** Every ServiceType, in Curator's declaration order. */
export const SERVICE_TYPES: readonly ServiceType[] = ['DYNAMIC', 'STATIC', 'PERMANENT', 'DYNAMIC_SEQUENTIAL'];

/** The node a registration of this type is, as Curator's ServiceDiscoveryImpl creates it. */
export function createModeOf(type: ServiceType): CreateMode {
  return type === 'DYNAMIC' ? 'ephemeral' : type === 'DYNAMIC_SEQUENTIAL' ? 'ephemeral-sequential' : 'persistent';
}

/**
 * A Java object as Jackson's polymorphic form carries it: `@class` names the Java class, the other properties are
 * its fields, e.g. `{ '@class': 'com.example.Meta', region: 'eu' }`.
 */
export interface JavaObject {
  readonly '@class'?: string;
  readonly [field: string]: JsonValue | undefined;
}

/**
 * An instance's payload: a Java object (`@class` naming its class; see springCloudPayload, dubboPayload), or a
 * value Jackson writes with no class (a string, a number, a boolean), or null. On reading, whatever JSON the
 * payload holds.
 */
export type ServicePayload = JavaObject | string | number | boolean | JsonValue;

/** One instance of a service (Curator's ServiceInstance). */
export interface ServiceInstance<P extends ServicePayload = ServicePayload> {
  /** The service's name: the instance's node is `<basePath>/<name>/<id>`. */
  readonly name: string;
  readonly id: string;
  readonly address: string | null;
  readonly port: number | null;
  readonly sslPort: number | null;
  readonly payload: P | null;
  /** Milliseconds since 1970 (UTC) when the instance was made. */
  readonly registrationTimeUTC: number;
  readonly serviceType: ServiceType;
  readonly uriSpec: UriSpec | null;
  /**
   * Whether providers hand the instance out. Curator's default (compatible) JSON does not carry it: an instance
   * written so reads back enabled.
   */
  readonly enabled: boolean;
}

/** What serviceInstance() is given; everything but `name` has Curator's default. */
export interface ServiceInstanceOptions<P extends ServicePayload = ServicePayload> {
  readonly name: string;
  /** Default: a random UUID. */
  readonly id?: string;
  /**
   * Default: this host's first non-loopback, non-link-local address (IPv4 first), as Curator's builder picks one.
   * Required where the runtime cannot list network interfaces (browsers, Cloudflare Workers). `null`: none.
   */
  readonly address?: string | null;
  readonly port?: number | null;
  readonly sslPort?: number | null;
  readonly payload?: P | null;
  /** Default: now. */
  readonly registrationTimeUTC?: number;
  /** Default DYNAMIC. */
  readonly serviceType?: ServiceType;
  /** A template (`'{scheme}://{address}:{port}'`) or parsed parts. Default none. */
  readonly uriSpec?: string | UriSpec | null;
  /** Default true. */
  readonly enabled?: boolean;
}

/** A new instance with Curator's defaults for what `options` leaves out. BAD_ARGUMENT for what Curator could not register. */
export function serviceInstance<P extends ServicePayload = ServicePayload>(options: ServiceInstanceOptions<P>): ServiceInstance<P> {
  const address = options.address === undefined ? localAddress() : options.address;
  if (address === undefined) {
    throw badArgument('serviceInstance', undefined, "no address given, and this runtime cannot list the host's addresses: pass `address`");
  }
  const uriSpec = options.uriSpec;
  const instance: ServiceInstance<P> = {
    name: options.name,
    id: options.id ?? crypto.randomUUID(),
    address,
    port: options.port ?? null,
    sslPort: options.sslPort ?? null,
    payload: options.payload ?? null,
    registrationTimeUTC: options.registrationTimeUTC ?? Date.now(),
    serviceType: options.serviceType ?? 'DYNAMIC',
    uriSpec: uriSpec === undefined || uriSpec === null ? null : typeof uriSpec === 'string' ? parseUriSpec(uriSpec) : uriSpec,
    enabled: options.enabled ?? true,
  };
  checkServiceInstance(instance, 'serviceInstance');
  return instance;
}

/**
 * Refuses an instance that cannot be registered: a name or id that is not a node name ZooKeeper accepts, a port
 * that is not a Java int, an unknown service type, a payload Jackson could not read back. BAD_ARGUMENT naming the field.
 */
export function checkServiceInstance(instance: ServiceInstance, what: string): void {
  const bad = (detail: string): ZooKeeperError =>
    badArgument(what, undefined, detail);
  if (instance === null || typeof instance !== 'object') throw bad('not a service instance');
  checkNodeName(instance.name, 'name', bad);
  checkNodeName(instance.id, 'id', bad);
  if (instance.address !== null && typeof instance.address !== 'string') throw bad('address must be a string or null');
  for (const field of ['port', 'sslPort'] as const) {
    const v = instance[field];
    if (v !== null && !(Number.isInteger(v) && v >= -2147483648 && v <= 2147483647)) throw bad(`${field} must be an integer (a Java int) or null`);
  }
  if (!Number.isSafeInteger(instance.registrationTimeUTC)) throw bad('registrationTimeUTC must be an integer (milliseconds)');
  if (!SERVICE_TYPES.includes(instance.serviceType)) throw bad(`serviceType must be one of ${SERVICE_TYPES.join(', ')}`);
  if (typeof instance.enabled !== 'boolean') throw bad('enabled must be a boolean');
  if (instance.uriSpec !== null) {
    const parts = (instance.uriSpec as { parts?: unknown }).parts;
    if (!Array.isArray(parts) || !parts.every((p: unknown) => isPart(p))) throw bad('uriSpec must be { parts: [{ value: string, variable: boolean }] }');
  }
  checkPayload(instance.payload, bad);
}

function isPart(p: unknown): boolean {
  return typeof p === 'object' && p !== null && typeof (p as { value?: unknown }).value === 'string' && typeof (p as { variable?: unknown }).variable === 'boolean';
}

/** Characters ZooKeeper refuses in a path (PathUtils.validatePath), besides `/`. */
const REFUSED = /[\u0000-\u001f\u007f-\u009f\ud800-\uf8ff\ufff0-\uffff]/;

/** True for a string ZooKeeper accepts as one node name (one path segment). */
export function isNodeName(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value !== '.' && value !== '..' && !value.includes('/') && !REFUSED.test(value);
}

function checkNodeName(value: unknown, field: string, bad: (detail: string) => ZooKeeperError): void {
  if (!isNodeName(value)) {
    throw bad(`${field} ${JSON.stringify(value)} is not a valid node name (non-empty, no "/", not "." or "..", no control or reserved characters)`);
  }
}

function checkPayload(payload: unknown, bad: (detail: string) => ZooKeeperError): void {
  if (payload === null || typeof payload === 'string' || typeof payload === 'boolean') return;
  if (typeof payload === 'number') {
    if (!Number.isFinite(payload)) throw bad('payload must be a finite number');
    return;
  }
  if (typeof payload !== 'object' || Array.isArray(payload)) throw bad('payload must be a Java object ({ "@class": ..., fields }), a string, a number, a boolean or null');
  if (typeof (payload as JavaObject)['@class'] !== 'string' || (payload as JavaObject)['@class'] === '') {
    throw bad('an object payload needs "@class", the Java class a Curator reader deserialises it as (e.g. springCloudPayload())');
  }
  checkJson(payload, bad, 0);
}

function checkJson(value: unknown, bad: (detail: string) => ZooKeeperError, depth: number): void {
  if (depth > 100) throw bad('payload nests too deeply');
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw bad('payload holds a number that is not finite');
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) checkJson(v, bad, depth + 1);
    return;
  }
  if (typeof value === 'object') {
    for (const v of Object.values(value)) if (v !== undefined) checkJson(v, bad, depth + 1);
    return;
  }
  throw bad(`payload holds a ${typeof value}, which JSON cannot carry`);
}
