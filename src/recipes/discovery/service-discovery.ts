/**
 * ServiceDiscovery: Curator's curator-x-discovery registry. Each registration is the node
 * `<basePath>/<name>/<id>` holding the instance as Curator's JsonInstanceSerializer writes it, so Java services
 * (Curator, Spring Cloud Zookeeper, Dubbo 3) find zkwire's instances and zkwire finds theirs.
 *
 * A registration is a PersistentNode in the service type's mode (DYNAMIC ephemeral, DYNAMIC_SEQUENTIAL ephemeral
 * sequential, STATIC and PERMANENT persistent): it is created again when someone deletes it and, after a session
 * expiry, on the client's new session, as Curator re-registers on RECONNECTED. This recipe decides only what the
 * nodes are, what is in them, and what a first registration does to a node that already holds its id: as Curator's
 * registerService replaces it, an ephemeral left by another session (this service's previous process, not yet
 * expired) is deleted rather than waited out.
 *
 * Queries read the server (no cache; see ServiceCache for one kept current). A node under a service that does not
 * hold an instance is skipped by queryForInstances with an `instanceSkipped` event, never an error.
 */

import type { ZooKeeperClient } from '../../client.js';
import { isCode, type ZooKeeperError } from '../../errors.js';
import { badArgument, illegalState, recipeError } from '../common/errors.js';
import { EventHub, type RecipeEvents } from '../common/event-hub.js';
import { Lifecycle, type RecipeState } from '../common/lifecycle.js';
import { checkRecipePath, childrenOrEmpty, joinPath } from '../common/nodes.js';
import type { WaitOptions } from '../common/deadline.js';
import { PersistentNode } from '../nodes/persistent-node.js';
import { decodeServiceInstance, encodeServiceInstance, type InstanceCodecOptions } from './instance-codec.js';
import { ServiceCache } from './service-cache.js';
import { ServiceProvider, type ServiceProviderOptions } from './service-provider.js';
import { checkServiceInstance, createModeOf, isNodeName, type ServiceInstance } from './service-instance.js';

/** Where the registry lives and how instances are written. */
export interface ServiceDiscoveryOptions extends InstanceCodecOptions {
  /** The registry's root. Default `/services`, Spring Cloud Zookeeper's and Dubbo's. */
  readonly basePath?: string;
  /** Registered by start() (Curator's builder `thisInstance`). */
  readonly thisInstance?: ServiceInstance;
}

/** What listeners and iterators of a ServiceDiscovery hear. */
export type ServiceDiscoveryEvent =
  /** A registration's node was created: at registration, and again after it was deleted or lost with a session. */
  | { readonly type: 'registered'; readonly name: string; readonly id: string; readonly path: string }
  /** A registration's node went (deleted by someone, or with an expired session); it is being created again. */
  | { readonly type: 'registrationLost'; readonly name: string; readonly id: string; readonly path: string }
  /** A query met a node that holds no instance (not Curator's JSON) and left it out. */
  | { readonly type: 'instanceSkipped'; readonly path: string; readonly error: ZooKeeperError };

/** `LATENT` constructed; `STARTED` from start() on; `CLOSED` after close(): every registration deleted. */
export type ServiceDiscoveryState = RecipeState;

interface Registration {
  instance: ServiceInstance;
  readonly node: PersistentNode;
  /** Settles once the node is started (or known never to be: replaced, unregistered or closed first). */
  ready: Promise<void>;
}

/** A curator-x-discovery registry on one client: registrations kept present, queries read from the server. */
export class ServiceDiscovery implements RecipeEvents<ServiceDiscoveryEvent>, AsyncDisposable {
  readonly #client: ZooKeeperClient;
  readonly #codec: InstanceCodecOptions;
  readonly #thisInstance: ServiceInstance | undefined;
  readonly #registrations = new Map<string, Registration>();
  readonly #events = new EventHub<ServiceDiscoveryEvent>();
  readonly #life: Lifecycle;
  /** The registry's root. */
  readonly basePath: string;

  constructor(client: ZooKeeperClient, options: ServiceDiscoveryOptions = {}) {
    this.basePath = options.basePath ?? '/services';
    checkRecipePath(this.basePath, 'ServiceDiscovery');
    if (options.thisInstance !== undefined) checkServiceInstance(options.thisInstance, 'ServiceDiscovery');
    this.#client = client;
    this.#codec = options.compatible === undefined ? {} : { compatible: options.compatible };
    this.#thisInstance = options.thisInstance;
    this.#life = new Lifecycle('ServiceDiscovery', this.basePath);
  }

  /** Where the registry is in its life. */
  get state(): ServiceDiscoveryState {
    return this.#life.state;
  }

  /**
   * Starts the registry; resolves at once, or with `thisInstance` once its node exists. Rejects with ABORTED on
   * `signal` (the registration goes on), with ILLEGAL_STATE when started before or closed first.
   */
  start(options: { signal?: AbortSignal } = {}): Promise<void> {
    return this.#life.start(options.signal, () => {
      const first = this.#thisInstance;
      if (first === undefined) this.#life.ready();
      else {
        this.registerService(first).then(
          () => this.#life.ready(),
          (err: unknown) => this.#life.fail(err),
        );
      }
    });
  }

  /** The node path of an instance: `<basePath>/<name>/<id>` (for DYNAMIC_SEQUENTIAL, the prefix of it). */
  pathForInstance(name: string, id: string): string {
    return joinPath(joinPath(this.basePath, name), id);
  }

  /**
   * Registers `instance` and keeps it registered until unregisterService() or close(); resolves once its node
   * exists. Registering an id again replaces the instance. BAD_ARGUMENT (nothing sent) for an instance that cannot
   * be registered; TIMEOUT after `timeoutMs`, ABORTED on `signal` (the registration then stays, still being made).
   */
  async registerService(instance: ServiceInstance, options: WaitOptions = {}): Promise<void> {
    this.#mustBeStarted('registerService');
    const data = encodeServiceInstance(instance, this.#codec);
    const previous = this.#registrations.get(instance.id);
    if (previous !== undefined && previous.instance.name === instance.name && previous.instance.serviceType === instance.serviceType) {
      previous.instance = instance;
      await previous.ready;
      // replaced by a registration of another name or type meanwhile: this one, the latest, replaces that
      if (this.#registrations.get(instance.id) !== previous || previous.node.state !== 'STARTED') return this.registerService(instance, options);
      await previous.node.setData(data);
      return;
    }
    // the registration is ours from here, synchronously: a concurrent registerService or unregisterService of the
    // same id sees it (never two nodes kept on one path)
    const path = this.pathForInstance(instance.name, instance.id);
    const mode = createModeOf(instance.serviceType);
    const node = new PersistentNode(this.#client, path, data, { mode, useProtection: false });
    const registration: Registration = { instance, node, ready: Promise.resolve() };
    node.addListener((event) => {
      if (event.type === 'error') return; // the node retries it; registerService's own wait reports what it cannot fix
      const { name, id } = registration.instance;
      // A node deleted by unregisterService(), close() or a replacement is not lost: #drop forgot it first.
      if (event.type === 'nodeDeleted' && this.#registrations.get(id) !== registration) return;
      this.#events.emit({ type: event.type === 'nodeCreated' ? 'registered' : 'registrationLost', name, id, path: event.path });
    });
    this.#registrations.set(instance.id, registration);
    registration.ready = (async () => {
      if (previous !== undefined) await this.#drop(instance.id, previous);
      if (mode === 'ephemeral') await this.#takeOver(path);
      if (this.#registrations.get(instance.id) !== registration) return; // replaced or unregistered meanwhile
      if (this.#life.state !== 'STARTED') throw illegalState('ServiceDiscovery.registerService', path, `the discovery was closed before ${path} was made`);
      node.start();
    })();
    await registration.ready;
    if (node.state !== 'STARTED') return;
    if (!(await node.waitForInitialCreate(options))) {
      throw recipeError('TIMEOUT', 'ServiceDiscovery.registerService', path, 'not created yet; the registration stays and is still being made');
    }
  }

  /** Writes a registered instance's new fields. BAD_ARGUMENT unless an instance with its id is registered here, under the same name. */
  async updateService(instance: ServiceInstance): Promise<void> {
    this.#mustBeStarted('updateService');
    const data = encodeServiceInstance(instance, this.#codec);
    const registration = this.#registrations.get(instance.id);
    if (registration === undefined || registration.instance.name !== instance.name || registration.instance.serviceType !== instance.serviceType) {
      const path = this.pathForInstance(instance.name, instance.id);
      throw badArgument('ServiceDiscovery.updateService', path, 'no instance with this id is registered here (with this name and service type)');
    }
    registration.instance = instance;
    await registration.node.setData(data);
  }

  /** Deletes an instance's registration (by the instance or its id). Nothing happens for one not registered here. */
  async unregisterService(instance: ServiceInstance | string): Promise<void> {
    this.#mustBeStarted('unregisterService');
    const id = typeof instance === 'string' ? instance : instance.id;
    const registration = this.#registrations.get(id);
    if (registration !== undefined) await this.#drop(id, registration);
  }

  /** A ServiceCache of service `name` in this registry (not started). */
  serviceCache(name: string): ServiceCache {
    return new ServiceCache(this.#client, name, { basePath: this.basePath });
  }

  /** A ServiceProvider of service `name` in this registry (not started). */
  serviceProvider(name: string, options: Omit<ServiceProviderOptions, 'basePath'> = {}): ServiceProvider {
    return new ServiceProvider(this.#client, name, { ...options, basePath: this.basePath });
  }

  /** The instances registered through this object, as last registered or updated. */
  registeredInstances(): ServiceInstance[] {
    return [...this.#registrations.values()].map((r) => r.instance);
  }

  /** The names of every registered service (the children of basePath). */
  async queryForNames(): Promise<string[]> {
    return childrenOrEmpty(this.#client, this.basePath);
  }

  /** Every instance of service `name`, read now. Nodes that hold no instance are left out (`instanceSkipped`). */
  async queryForInstances(name: string): Promise<ServiceInstance[]> {
    const servicePath = this.#servicePath(name, 'queryForInstances');
    const ids = await childrenOrEmpty(this.#client, servicePath);
    const found = await Promise.all(
      ids.map(async (id) => {
        const path = joinPath(servicePath, id);
        try {
          return decodeServiceInstance((await this.#client.getData(path)).data, path);
        } catch (err) {
          if (isCode(err, 'NONODE')) return undefined;
          if (isCode(err, 'MARSHALLINGERROR')) {
            this.#events.emit({ type: 'instanceSkipped', path, error: err as ZooKeeperError });
            return undefined;
          }
          throw err;
        }
      }),
    );
    return found.filter((i): i is ServiceInstance => i !== undefined);
  }

  /** The instance `id` of service `name`, or null when there is none. MARSHALLINGERROR when its node holds no instance. */
  async queryForInstance(name: string, id: string): Promise<ServiceInstance | null> {
    const path = joinPath(this.#servicePath(name, 'queryForInstance', id), id);
    try {
      return decodeServiceInstance((await this.#client.getData(path)).data, path);
    } catch (err) {
      if (isCode(err, 'NONODE')) return null;
      throw err;
    }
  }

  addListener(listener: (event: ServiceDiscoveryEvent) => void): () => void {
    return this.#events.subscribe(listener);
  }

  events(options: { signal?: AbortSignal } = {}): AsyncIterable<ServiceDiscoveryEvent> {
    return this.#events.stream(options.signal);
  }

  /** Unregisters everything registered here (deleting the nodes) and stops. ILLEGAL_STATE unless started. */
  async close(): Promise<void> {
    this.#life.close();
    const all = [...this.#registrations.entries()];
    const results = await Promise.allSettled(all.map(([id, r]) => this.#drop(id, r)));
    this.#events.end();
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  }

  /** For `await using`: close() if started, else just marks it CLOSED. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#life.disposing()) await this.close();
  }

  #mustBeStarted(what: string): void {
    this.#life.requireStarted(what);
  }

  #servicePath(name: string, what: string, id?: string): string {
    for (const [field, value] of [['name', name], ...(id === undefined ? [] : [['id', id]])] as const) {
      if (!isNodeName(value)) {
        throw badArgument(`ServiceDiscovery.${what}`, this.basePath, `${field} ${JSON.stringify(value)} is not a valid node name`);
      }
    }
    return joinPath(this.basePath, name);
  }

  async #drop(id: string, registration: Registration): Promise<void> {
    if (this.#registrations.get(id) === registration) this.#registrations.delete(id);
    if (registration.node.state === 'STARTED') await registration.node.close();
  }

  /**
   * A first registration replaces an ephemeral another session left on its path (Curator deletes and re-creates).
   * Best effort: if this fails (a broken link), the PersistentNode waits for that ephemeral to go instead.
   */
  async #takeOver(path: string): Promise<void> {
    try {
      const stat = await this.#client.exists(path);
      if (stat === null || stat.ephemeralOwner === 0n || stat.ephemeralOwner === this.#client.sessionId) return;
      await this.#client.delete(path, { version: stat.version });
    } catch {
      // gone already, changed meanwhile, or no connection: the node recipe copes
    }
  }
}
