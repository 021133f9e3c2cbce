/**
 * A subtree, read node by node in pre-order with children sorted: the walk every subtree tool (ls -R, find,
 * export, cp, mv, setacl -R) stands on. Reads go out pipelined (all of a node's children at once, in call order),
 * so a wide tree costs round trips per level, not per node. A node deleted while the walk runs is passed over.
 */

import type { ZooKeeperClient } from '../../client.js';
import type { ACL, Stat } from '../../protocol/index.js';
import { joinPath } from '../../protocol/paths.js';
import { clientError, ZooKeeperError } from '../../errors.js';

/** One node of the walk. `data` and `acl` are there when asked for. */
export interface TreeNode {
  readonly path: string;
  readonly stat: Stat;
  readonly data?: Uint8Array;
  readonly acl?: readonly ACL[];
  /** The node's children, sorted (the walk visits them next). */
  readonly children: readonly string[];
}

export interface WalkOptions {
  /** Read each node's data (getData); else only its Stat (exists). */
  readonly data?: boolean;
  readonly acl?: boolean;
  readonly signal?: AbortSignal;
}

const gone = (e: unknown): boolean => e instanceof ZooKeeperError && e.code === 'NONODE';

/** Reads one node as the options ask; null when it does not exist (any more). */
async function readNode(client: ZooKeeperClient, path: string, opts: WalkOptions): Promise<TreeNode | null> {
  const call = opts.signal === undefined ? {} : { signal: opts.signal };
  // Issued together, before any await: they share the wire in this order.
  const main = opts.data === true ? client.getData(path, call) : client.exists(path, call).then((stat) => (stat === null ? null : { stat, data: undefined }));
  const acl = opts.acl === true ? client.getACL(path, call) : undefined;
  const children = client.getChildren(path, call);
  const settled = await Promise.allSettled([main, acl, children]);
  for (const s of settled) if (s.status === 'rejected' && !gone(s.reason)) throw s.reason;
  const [m, a, c] = settled;
  if (m.status === 'rejected' || m.value === null || c.status === 'rejected' || a.status === 'rejected') return null;
  const node: { path: string; stat: Stat; data?: Uint8Array; acl?: readonly ACL[]; children: string[] } = {
    path,
    stat: m.value.stat,
    children: [...c.value].sort(),
  };
  if (m.value.data !== undefined) node.data = m.value.data;
  if (a.status === 'fulfilled' && a.value !== undefined) node.acl = a.value.acl;
  return node;
}

/**
 * The nodes of the subtree at `root` (root first), each before its children, children in sorted order. A NONODE
 * error for the root itself, since a walk of nothing is a mistake the caller should hear about.
 */
export async function* walkTree(client: ZooKeeperClient, root: string, opts: WalkOptions = {}): AsyncGenerator<TreeNode> {
  const top = await readNode(client, root, opts);
  if (top === null) throw clientError('NONODE', undefined, { op: 'getChildren', path: root });
  // A stack of sibling groups whose reads are already on the wire; the next node is the first of the top group.
  const stack: Promise<TreeNode | null>[][] = [];
  const expand = (node: TreeNode): void => {
    if (node.children.length === 0) return;
    stack.push(
      node.children.map((name) => {
        const read = readNode(client, joinPath(node.path, name), opts);
        // A caller that stops early leaves reads behind: their failures are not news to anyone.
        read.catch(() => {});
        return read;
      }),
    );
  };
  yield top;
  expand(top);
  while (stack.length > 0) {
    const group = stack[stack.length - 1]!;
    const next = group.shift();
    if (group.length === 0) stack.pop();
    if (next === undefined) continue;
    const node = await next;
    if (node === null) continue;
    yield node;
    expand(node);
  }
}
