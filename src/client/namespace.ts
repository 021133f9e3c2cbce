/**
 * Namespaces (Curator's usingNamespace): a view of a client under a path prefix, on the same session. A view is a
 * client whose context maps paths through the client's chroot plus the namespace, so every operation, watch event,
 * create result and multi result is relative to the namespace exactly as under a connect-string chroot, and every
 * recipe works on a view unchanged. What stays the client's: the session, its state and events, the limits.
 *
 * As in Curator, the namespace's nodes are created (as containers) before the view's first operation goes out; a
 * failure to create them is not reported there (the operation then fails on its own, NONODE naming the missing
 * namespace) and the next operation tries again.
 */

import { clientContext, clientView, type ZooKeeperClient } from '../client.js';
import { clientError, isCode } from '../errors.js';
import { Chroot } from './chroot.js';
import { ClientContext, type ReplyTo, type WireOp } from './context.js';
import type { Recover } from './retry-call.js';
import { pathProblem } from '../protocol/paths.js';
import type { RequestBodyByOp } from '../protocol/ops.js';
import type { ACL } from './acl.js';
import type { CallOptions } from './types.js';

/** A namespace as a path: `app`, `/app`, `a/b` → `/app`, `/a/b`; null, `''` or `/` → undefined (no namespace). */
export function namespacePath(namespace: string | null): string | undefined {
  if (namespace === null || namespace === '' || namespace === '/') return undefined;
  if (typeof namespace !== 'string') throw clientError('BAD_ARGUMENT', `a namespace is a string, got ${typeof namespace}`, { op: 'usingNamespace' });
  const path = namespace.startsWith('/') ? namespace : `/${namespace}`;
  const problem = pathProblem(path, false);
  if (problem !== undefined) throw clientError('BAD_ARGUMENT', problem, { op: 'usingNamespace', path });
  return path;
}

/** Makes the namespace's nodes (before a view's first request). */
export type EnsureNamespace = () => Promise<void>;

/**
 * A view of `client` under `namespace` (Curator's `client.usingNamespace("app")`): the same session, with every path
 * relative to `<chroot>/<namespace>` as under a connect-string chroot, so any recipe or discovery can run in it. The
 * namespace's nodes are created (as containers) before the view's first operation. On a view, the namespace
 * replaces the view's (as in Curator); null, `''` or `/` give the client itself. One view per namespace: the same
 * object each time. Closing a view does nothing; close the client. (A function rather than a method, so that an
 * application that never uses namespaces does not ship them.)
 */
export function usingNamespace(client: ZooKeeperClient, namespace: string | null): ZooKeeperClient {
  const same = (ctx: ClientContext): ClientContext => ctx;
  const root = clientView(client, undefined, same, 'usingNamespace');
  const ns = namespacePath(namespace);
  if (ns === undefined) return root;
  // The namespace's nodes, as the client's own paths (its chroot applies): containers (persistent nodes where the
  // server has none or the client's `containers` is false), in one round trip.
  const ensure = (): Promise<void> =>
    root.create(ns, null, { mode: 'container', parents: 'containers' }).then(
      () => undefined,
      (err: unknown) => {
        if (!isCode(err, 'NODEEXISTS')) throw err;
      },
    );
  return clientView(client, ns, (rootContext) => new NamespaceContext(rootContext, ns, ensure), 'usingNamespace');
}

/** The namespace a view works under (`/app`), undefined for a client that is no namespace view. */
export function namespaceOf(client: ZooKeeperClient): string | undefined {
  const ctx = clientContext(client, 'namespaceOf');
  return ctx instanceof NamespaceContext ? ctx.namespace : undefined;
}

/**
 * A client's context under a namespace: its own chroot (the client's plus the namespace), the client's data
 * limits, and the namespace made before the first request.
 */
export class NamespaceContext extends ClientContext {
  readonly #root: ClientContext;
  readonly #ensure: EnsureNamespace;
  #ensuring: Promise<void> | undefined;
  #ready = false;

  constructor(
    root: ClientContext,
    /** The namespace, as a path relative to the client's chroot. */
    readonly namespace: string,
    ensure: EnsureNamespace,
  ) {
    super(root.sessions, new Chroot(root.chroot.toServer(namespace)), root.defaultAcl, Number.POSITIVE_INFINITY, root.creates);
    this.#root = root;
    this.#ensure = ensure;
    // the view compresses as its client does, its writes queued with the client's (compression.ts)
    root.compression?.(this);
  }

  /** The client's ACL for the path with the namespace in front, as Curator's provider sees a namespaced path. */
  override aclFor(path: string): readonly ACL[] {
    return this.#root.aclFor(new Chroot(this.namespace).toServer(path));
  }

  override data(...args: Parameters<ClientContext['data']>): Uint8Array {
    return this.#root.data(...args);
  }

  override checkRequestSize(...args: Parameters<ClientContext['checkRequestSize']>): void {
    this.#root.checkRequestSize(...args);
  }

  /**
   * Once the namespace exists, sends at once (call order is wire order); before, after the namespace is made, in
   * call order (each waits on the same promise).
   */
  override send<K extends WireOp, T>(
    op: string,
    path: string | undefined,
    wire: K,
    body: RequestBodyByOp[K],
    options: CallOptions,
    onReply: (reply: ReplyTo<K>) => T,
    onAbandoned?: (result: T) => void,
    recover?: Recover<T>,
  ): Promise<T> {
    if (this.#ready) return super.send(op, path, wire, body, options, onReply, onAbandoned, recover);
    return this.#made().then(() => super.send(op, path, wire, body, options, onReply, onAbandoned, recover));
  }

  #made(): Promise<void> {
    this.#ensuring ??= this.#ensure().then(
      () => void (this.#ready = true),
      () => void (this.#ensuring = undefined), // try again with the next operation
    );
    return this.#ensuring;
  }
}
