/**
 * Ready-made payloads for the Java frameworks that find services through curator-x-discovery. Spring Cloud
 * Zookeeper and Dubbo 3 (application-level discovery) each register a `ZookeeperInstance` payload of the same shape
 * (`id`, `name`, `metadata`: a map of strings) under their own class name; a consumer deserialises the payload as
 * its own class, so a Node instance must carry the class the consumers expect.
 */

import type { JavaObject } from './service-instance.js';

/** Spring Cloud Zookeeper's payload class. */
export const SPRING_CLOUD_INSTANCE_CLASS = 'org.springframework.cloud.zookeeper.discovery.ZookeeperInstance';

/** Dubbo 3's payload class (dubbo-registry-zookeeper). */
export const DUBBO_INSTANCE_CLASS = 'org.apache.dubbo.registry.zookeeper.ZookeeperInstance';

/** The fields of Spring Cloud's and Dubbo's ZookeeperInstance. */
export interface ZookeeperInstanceFields {
  /** Spring Cloud: the application context id (usually `<application name>-<port>`); Dubbo: the instance id. */
  readonly id: string;
  /** The service (Spring: `spring.application.name`; Dubbo: the application name). */
  readonly name: string;
  /** Spring Cloud reads `instance_status` (UP / OUT_OF_SERVICE) and any user metadata from here. Default empty. */
  readonly metadata?: Readonly<Record<string, string>>;
}

/** A ZookeeperInstance payload of the given Java class. */
export interface ZookeeperInstancePayload extends JavaObject {
  readonly '@class': string;
  readonly id: string;
  readonly name: string;
  readonly metadata: Readonly<Record<string, string>>;
}

/** A Java object payload: `@class` then the fields, in the order given (Jackson writes its class's field order). */
export function javaPayload(javaClass: string, fields: Omit<JavaObject, '@class'>): JavaObject {
  return { '@class': javaClass, ...fields };
}

/** The payload Spring Cloud Zookeeper consumers expect. */
export function springCloudPayload(fields: ZookeeperInstanceFields): ZookeeperInstancePayload {
  return { '@class': SPRING_CLOUD_INSTANCE_CLASS, id: fields.id, name: fields.name, metadata: { ...(fields.metadata ?? {}) } };
}

/** The payload Dubbo 3's service discovery on ZooKeeper expects. */
export function dubboPayload(fields: ZookeeperInstanceFields): ZookeeperInstancePayload {
  return { '@class': DUBBO_INSTANCE_CLASS, id: fields.id, name: fields.name, metadata: { ...(fields.metadata ?? {}) } };
}

/**
 * The id, name and metadata of a payload read from ZooKeeper when it is a ZookeeperInstance of either framework
 * (any `@class` ending in `.ZookeeperInstance`), else undefined.
 */
export function readZookeeperInstance(payload: unknown): ZookeeperInstanceFields | undefined {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return undefined;
  const p = payload as Record<string, unknown>;
  if (typeof p['@class'] !== 'string' || !p['@class'].endsWith('.ZookeeperInstance')) return undefined;
  const metadata: Record<string, string> = {};
  if (p['metadata'] !== null && typeof p['metadata'] === 'object') {
    for (const [k, v] of Object.entries(p['metadata'] as Record<string, unknown>)) if (typeof v === 'string') metadata[k] = v;
  }
  return { id: typeof p['id'] === 'string' ? p['id'] : '', name: typeof p['name'] === 'string' ? p['name'] : '', metadata };
}
