/**
 * The `zkwire/discovery` entry: Curator's service discovery (curator-x-discovery), read and written as Java services
 * (Spring Cloud, Dubbo, Curator) do, so Node services and Java ones find each other in one registry. See
 * docs/discovery.md.
 *
 * @module zkwire/discovery
 */

export {
  ServiceDiscovery,
  type ServiceDiscoveryEvent,
  type ServiceDiscoveryOptions,
  type ServiceDiscoveryState,
} from './recipes/discovery/service-discovery.js';
export {
  createModeOf,
  isNodeName,
  SERVICE_TYPES,
  serviceInstance,
  checkServiceInstance,
  type JavaObject,
  type ServiceInstance,
  type ServiceInstanceOptions,
  type ServicePayload,
  type ServiceType,
} from './recipes/discovery/service-instance.js';
export { decodeServiceInstance, encodeServiceInstance, type InstanceCodecOptions } from './recipes/discovery/instance-codec.js';
export type { JsonValue } from './protocol/describe.js';
export { buildUriSpec, parseUriSpec, type UriSpec, type UriSpecPart, type UriSpecSource } from './recipes/discovery/uri-spec.js';
export {
  DUBBO_INSTANCE_CLASS,
  dubboPayload,
  javaPayload,
  readZookeeperInstance,
  SPRING_CLOUD_INSTANCE_CLASS,
  springCloudPayload,
  type ZookeeperInstanceFields,
  type ZookeeperInstancePayload,
} from './recipes/discovery/payloads.js';
export { ServiceCache, type ServiceCacheEvent, type ServiceCacheOptions, type ServiceCacheState } from './recipes/discovery/service-cache.js';
export { ServiceProvider, type ServiceProviderOptions } from './recipes/discovery/service-provider.js';
export { randomStrategy, roundRobinStrategy, stickyStrategy, type ProviderStrategy } from './recipes/discovery/provider-strategies.js';
export type { DownInstancePolicy } from './recipes/discovery/down-instances.js';
